import { defineSubgraph, pingOf, type HandleOf } from '../../lib/subgraph.js';
import { buildOntologyServices } from './services.js';
import type { NameMatch, Suggestion, TermRef } from './store/term.store.js';
import { checkMetadataTerms, type MetadataTermValues, type MetadataTermField } from './term-validation.service.js';
import { TermResolver, toTerm } from './term.resolver.js';
import { TermImportResolver } from './term-import.resolver.js';
import { TermValidationResolver } from './term-validation.resolver.js';
import { seedVocabularies, type SeedStep } from './seed.js';

export const SUBGRAPH_NAME = 'ontology' as const;

export type { MetadataTermValues, MetadataTermField } from './term-validation.service.js';
export type { TermRef, NameMatch, Suggestion } from './store/term.store.js';
export type { SeedStep } from './seed.js';

/** The ontology subgraph: vocabularies and terms; `Term` is an entity other subgraphs can reference by id. */
export const ontology = defineSubgraph({
  name: SUBGRAPH_NAME,
  services: buildOntologyServices,
  resolvers: (s) => [pingOf(SUBGRAPH_NAME), new TermResolver(s.terms), new TermImportResolver(s.imports), new TermValidationResolver(s.validation)],
  referenceResolvers: (s) => ({
    Term: {
      __resolveReference: async (ref: { id: string }, ctx: object) => {
        const term = await s.termLoader(ctx ?? {}).load(String(ref.id));
        return term ? toTerm(term) : null;
      },
    },
  }),
  exports: (services) => ({
    /**
     * Checks dataset metadata values against the ontology, for the neurodata subgraph (spec 7): brain_region,
     * species, microscopy (vocabulary microscopy_technique) and neurotransmitter, each a string or a list. A value
     * is valid when it is the code or label of an active term, case- and accent-insensitively. Returns the matched
     * terms per field; throws BadInput listing every rejected value with its closest terms. Deprecated terms are
     * rejected (with their replacement) unless `allowDeprecated`.
     */
    async validateTermValues(values: MetadataTermValues, opts: { allowDeprecated?: boolean } = {}): Promise<Partial<Record<MetadataTermField, TermRef[]>>> {
      return checkMetadataTerms((await services()).validation, values, opts);
    },
    /**
     * For dataset search: the codes, labels and synonyms equal to each phrase (case- and accent-insensitively) in
     * the given vocabularies, with each term's status and replacement.
     */
    async findTermsByName(phrases: readonly string[], vocabularies: readonly string[]): Promise<NameMatch[]> {
      return (await services()).store.matchNames(phrases, vocabularies);
    },
    /** For dataset search: the terms narrower than `ids` at any depth, with the ids themselves and the deprecated terms they replaced. */
    async narrowerTerms(ids: readonly string[]): Promise<string[]> {
      return (await services()).store.narrowerOrReplaced(ids);
    },
    /** For SyQL's WITHIN: the code of a brain region and the codes of every region below it; null for an unknown code. */
    async regionCodesWithin(code: string): Promise<string[] | null> {
      return (await services()).store.codesWithin('brain_region', code);
    },
    /**
     * For atlas comparison: each brain region code's lineage, root first (the region itself last), as code and
     * label; unknown codes are absent from the map.
     */
    async regionLineages(codes: readonly string[]): Promise<Map<string, Array<{ code: string; label: string }>>> {
      return (await services()).store.lineages('brain_region', codes);
    },
    /** For dataset search: active terms of `vocabularies` whose names are close to a misspelled word (trigram similarity). */
    async suggestTermsForWord(word: string, vocabularies: readonly string[], minScore: number): Promise<Suggestion[]> {
      const all = await (await services()).store.suggest([word], { limit: 5, minScore });
      return all.filter((x) => vocabularies.includes(x.vocabulary) && x.score >= minScore);
    },
  }),
  /** Loads the shipped vocabularies that are not in the store yet (first start); idempotent and quick afterwards. */
  async onStart(s, deps) {
    // Terms by id are kept from here on, until the term tables announce a change.
    s.followTermChanges();
    const steps = await seedVocabularies(s, { onlyMissing: true, seedDir: deps.config.seedDir });
    const loaded = steps.filter((x) => !x.skipped);
    if (loaded.length) deps.log.info({ vocabularies: loaded.map((x) => ({ name: x.vocabulary, created: x.created, ms: x.ms })) }, 'ontology vocabularies seeded');
  },
  async onStop(s) {
    s.stopFollowingTermChanges();
  },
  /** Re-imports every shipped vocabulary as an upsert (npm run seed), reporting each one as it finishes. */
  seed: (s, deps, onProgress): Promise<SeedStep[]> =>
    seedVocabularies(s, {
      onlyMissing: false,
      seedDir: deps.config.seedDir,
      onProgress: (x) =>
        onProgress(`ontology: ${x.vocabulary}: ${x.created} created, ${x.updated} updated, ${x.unchanged} unchanged, ${x.synonymsAdded} synonyms added (${x.ms} ms)`),
    }),
});

/** What other subgraphs reach of the ontology: `ontology.use(deps)`. */
export type OntologyHandle = HandleOf<typeof ontology>;
