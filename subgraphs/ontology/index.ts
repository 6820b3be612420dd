import DataLoader from 'dataloader';
import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../schema/federation.js';
import { pingResolver } from '../../schema/health.types.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { TermStore, type NameMatch, type Suggestion, type TermRef } from './store/term.store.js';
import { TermService, type TermRecord } from './term.service.js';
import { TermImportService } from './term-import.service.js';
import { TermValidationService, checkMetadataTerms, type MetadataTermValues, type MetadataTermField } from './term-validation.service.js';
import { TermResolver, toTerm } from './term.resolver.js';
import { TermImportResolver } from './term-import.resolver.js';
import { TermValidationResolver } from './term-validation.resolver.js';
import { seedVocabularies, type SeedStep } from './seed.js';

export const SUBGRAPH_NAME = 'ontology';

export type { MetadataTermValues, MetadataTermField } from './term-validation.service.js';
export type { TermRef, NameMatch, Suggestion } from './store/term.store.js';
export type { SeedStep } from './seed.js';

function services(deps: SubgraphDeps) {
  const store = new TermStore(deps.stores.relational.db);
  const log = deps.log.child({ subgraph: SUBGRAPH_NAME });
  return {
    store,
    terms: new TermService(store, deps.clock, log.child({ component: 'TermService' })),
    imports: new TermImportService(store, deps.clock, log.child({ component: 'TermImportService' })),
    validation: new TermValidationService(store),
  };
}

/** Builds the ontology subgraph's federated schema; `Term` is an entity other subgraphs can reference by id. */
export async function buildSchema(deps: SubgraphDeps): Promise<GraphQLSchema> {
  const s = services(deps);
  // One loader per request context, so a page of datasets that reference terms costs one query.
  const loaders = new WeakMap<object, DataLoader<string, TermRecord | null>>();
  const loaderFor = (ctx: object) => {
    let l = loaders.get(ctx);
    if (!l) loaders.set(ctx, (l = new DataLoader((ids: readonly string[]) => s.terms.getMany(ids))));
    return l;
  };
  const Ping = pingResolver(SUBGRAPH_NAME);
  return buildFederatedSchema({
    resolvers: [Ping, TermResolver, TermImportResolver, TermValidationResolver],
    instances: [new (Ping as new () => object)(), new TermResolver(s.terms), new TermImportResolver(s.imports), new TermValidationResolver(s.validation)],
    referenceResolvers: {
      Term: {
        __resolveReference: async (ref: { id: string }, ctx: object) => {
          const term = await loaderFor(ctx ?? {}).load(String(ref.id));
          return term ? toTerm(term) : null;
        },
      },
    },
  });
}

/** Loads the shipped vocabularies that are not in the store yet (first start); idempotent and quick afterwards. */
export async function onStart(deps: SubgraphDeps): Promise<void> {
  const s = services(deps);
  const steps = await seedVocabularies(s, { onlyMissing: true });
  const loaded = steps.filter((x) => !x.skipped);
  if (loaded.length) deps.log.info({ vocabularies: loaded.map((x) => ({ name: x.vocabulary, created: x.created, ms: x.ms })) }, 'ontology vocabularies seeded');
}

/** Re-imports every shipped vocabulary as an upsert (npm run seed), reporting each one as it finishes. */
export async function seed(deps: SubgraphDeps, onProgress?: (message: string) => void): Promise<SeedStep[]> {
  return seedVocabularies(services(deps), {
    onlyMissing: false,
    onProgress: (x) =>
      onProgress?.(`ontology: ${x.vocabulary}: ${x.created} created, ${x.updated} updated, ${x.unchanged} unchanged, ${x.synonymsAdded} synonyms added (${x.ms} ms)`),
  });
}

/**
 * Checks dataset metadata values against the ontology, for the neurodata subgraph (spec 7): brain_region, species,
 * microscopy (vocabulary microscopy_technique) and neurotransmitter, each a string or a list. A value is valid when
 * it is the code or label of an active term, case- and accent-insensitively. Returns the matched terms per field;
 * throws BadInput listing every rejected value with its closest terms. Deprecated terms are rejected (with their
 * replacement) unless `allowDeprecated`.
 */
export async function validateTermValues(
  deps: Pick<SubgraphDeps, 'stores'>,
  values: MetadataTermValues,
  opts: { allowDeprecated?: boolean } = {},
): Promise<Partial<Record<MetadataTermField, TermRef[]>>> {
  return checkMetadataTerms(new TermValidationService(new TermStore(deps.stores.relational.db)), values, opts);
}

/**
 * For dataset search: the codes, labels and synonyms equal to each phrase (case- and accent-insensitively) in the
 * given vocabularies, with each term's status and replacement.
 */
export async function findTermsByName(deps: Pick<SubgraphDeps, 'stores'>, phrases: readonly string[], vocabularies: readonly string[]): Promise<NameMatch[]> {
  return new TermStore(deps.stores.relational.db).matchNames(phrases, vocabularies);
}

/** For dataset search: the terms narrower than `ids` at any depth, with the ids themselves and the deprecated terms they replaced. */
export async function narrowerTerms(deps: Pick<SubgraphDeps, 'stores'>, ids: readonly string[]): Promise<string[]> {
  return new TermStore(deps.stores.relational.db).narrowerOrReplaced(ids);
}

/** For SyQL's WITHIN: the code of a brain region and the codes of every region below it; null for an unknown code. */
export async function regionCodesWithin(deps: Pick<SubgraphDeps, 'stores'>, code: string): Promise<string[] | null> {
  return new TermStore(deps.stores.relational.db).codesWithin('brain_region', code);
}

/**
 * For atlas comparison: each brain region code's lineage, root first (the region itself last), as code and label;
 * unknown codes are absent from the map.
 */
export async function regionLineages(deps: Pick<SubgraphDeps, 'stores'>, codes: readonly string[]): Promise<Map<string, Array<{ code: string; label: string }>>> {
  return new TermStore(deps.stores.relational.db).lineages('brain_region', codes);
}

/** For dataset search: active terms of `vocabularies` whose names are close to a misspelled word (trigram similarity). */
export async function suggestTermsForWord(deps: Pick<SubgraphDeps, 'stores'>, word: string, vocabularies: readonly string[], minScore: number): Promise<Suggestion[]> {
  const all = await new TermStore(deps.stores.relational.db).suggest([word], { limit: 5, minScore });
  return all.filter((s) => vocabularies.includes(s.vocabulary) && s.score >= minScore);
}
