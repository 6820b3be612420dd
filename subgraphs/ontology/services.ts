import DataLoader from 'dataloader';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { TermStore } from './store/term.store.js';
import { NotifiedCache } from '../../lib/notified-cache.js';
import { KEPT_TERMS_MAX, TERMS_CHANGED_CHANNEL, TermService, type TermRecord } from './term.service.js';
import { TermImportService } from './term-import.service.js';
import { TermValidationService } from './term-validation.service.js';

/** Every service of the ontology subgraph over these stores: the one place they are wired. */
export function buildOntologyServices(deps: SubgraphDeps) {
  const store = new TermStore(deps.stores.relational.db);
  const kept = new NotifiedCache<string, TermRecord>(KEPT_TERMS_MAX);
  let unfollow: (() => void) | undefined;
  const terms = new TermService(store, deps.clock, deps.log.child({ component: 'TermService' }), kept);
  // One loader per request context, so a page of datasets that reference terms costs one query.
  const loaders = new WeakMap<object, DataLoader<string, TermRecord | null>>();
  const termLoader = (ctx: object) => {
    let l = loaders.get(ctx);
    if (!l) loaders.set(ctx, (l = new DataLoader((ids: readonly string[]) => terms.getMany(ids))));
    return l;
  };
  return {
    store,
    terms,
    termLoader,
    imports: new TermImportService(store, deps.clock, deps.log.child({ component: 'TermImportService' }), () => terms.termsChanged()),
    validation: new TermValidationService(store),
    /** Keeps terms read by id until the term tables announce a change (started with the subgraph, not by a schema build). */
    followTermChanges: () => {
      unfollow ??= deps.stores.relational.subscribe(TERMS_CHANGED_CHANNEL, kept.follow);
    },
    /** Stops following, and with it keeping: nothing kept can be told stale any more. */
    stopFollowingTermChanges: () => {
      unfollow?.();
      unfollow = undefined;
      kept.follow('lost');
    },
  };
}

export type OntologyServices = Awaited<ReturnType<typeof buildOntologyServices>>;
