import type { SubgraphDeps } from '../../lib/subgraph.js';
import type { ChannelEvent } from '../../lib/db/relational.js';
import { TermStore } from './store/term.store.js';
import { NotifiedCache } from '../../lib/notified-cache.js';
import { KEPT_TERMS_MAX, TERMS_CHANGED_CHANNEL, TermService, type TermRecord } from './term.service.js';
import { TermImportService } from './term-import.service.js';
import { KEPT_SNAPSHOTS_MAX, TermValidationService } from './term-validation.service.js';
import type { VocabularyNames } from './vocabulary-names.js';
import { perRequestLoader } from '../../lib/request-loader.js';

/** Every service of the ontology subgraph over these stores: the one place they are wired. */
export function buildOntologyServices(deps: SubgraphDeps) {
  const store = new TermStore(deps.stores.relational.db);
  const kept = new NotifiedCache<string, TermRecord>(KEPT_TERMS_MAX);
  const keptNames = new NotifiedCache<string, VocabularyNames>(KEPT_SNAPSHOTS_MAX);
  const follow = (event: ChannelEvent): void => {
    kept.follow(event);
    keptNames.follow(event);
  };
  let unfollow: (() => void) | undefined;
  const terms = new TermService(store, deps.clock, deps.log.child({ component: 'TermService' }), { kept, alsoKept: [keptNames] });
  const termLoader = perRequestLoader((ids: readonly string[]) => terms.getMany(ids));
  return {
    store,
    terms,
    termLoader,
    imports: new TermImportService(store, deps.clock, deps.log.child({ component: 'TermImportService' }), () => terms.termsChanged()),
    validation: new TermValidationService(store, keptNames),
    /**
     * Keeps terms read by id, and the vocabularies' names validations match against, until the term tables announce
     * a change (started with the subgraph, not by a schema build).
     */
    followTermChanges: () => {
      unfollow ??= deps.stores.relational.subscribe(TERMS_CHANGED_CHANNEL, follow);
    },
    /** Stops following, and with it keeping: nothing kept can be told stale any more. */
    stopFollowingTermChanges: () => {
      unfollow?.();
      unfollow = undefined;
      follow('lost');
    },
  };
}

export type OntologyServices = Awaited<ReturnType<typeof buildOntologyServices>>;
