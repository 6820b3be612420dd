import { Conflict, Forbidden, NotFound, RateLimited } from '../../lib/errors.js';

export interface Running {
  ownerId: string;
  queryId: string;
  /** The id the engine runs it under: the owner's id is part of it, so two users may choose the same query_id. */
  engineId: string;
  cancelled: boolean;
  startedAt: number;
  /** Aborted by a cancel (after the engine was told): stops the exec even before its statement reached the engine. */
  readonly abort: AbortController;
}

/**
 * The SyQL queries this process is running, by their owner and the query_id the owner chose (ids are the owner's
 * own: two users may use the same one): whether a cancel reached each, so the waiting exec can say why it stopped,
 * and how many each user runs, so that one user cannot hold every connection of the column store.
 */
export class RunningQueries {
  private readonly byKey = new Map<string, Running>();

  constructor(private readonly maxPerUser = Number.POSITIVE_INFINITY) {}

  static engineId(ownerId: string, queryId: string): string {
    return `syql-${ownerId.replace(/-/g, '')}-${queryId}`;
  }

  private static key(ownerId: string, queryId: string): string {
    return `${ownerId}\n${queryId}`;
  }

  /**
   * Registers a query about to run. The owner's own query_id already running is a conflict; a user already running
   * `maxPerUser` queries is refused with a 429 (SYQL_MAX_CONCURRENT_PER_USER).
   */
  start(ownerId: string, queryId: string): Running {
    const key = RunningQueries.key(ownerId, queryId);
    if (this.byKey.has(key)) throw new Conflict(`query_id ${queryId} is already running: choose another, or cancel it first`);
    const mine = [...this.byKey.values()].filter((r) => r.ownerId === ownerId).length;
    if (mine >= this.maxPerUser) {
      throw new RateLimited(
        `you are running ${mine} SyQL queries already, the most one user may run at once (SYQL_MAX_CONCURRENT_PER_USER): wait for one to finish or cancel it (POST /v1/syql/cancel), or submit a job (POST /v1/jobs)`,
        1,
      );
    }
    const r: Running = { ownerId, queryId, engineId: RunningQueries.engineId(ownerId, queryId), cancelled: false, startedAt: Date.now(), abort: new AbortController() };
    this.byKey.set(key, r);
    return r;
  }

  finish(r: Running): void {
    const key = RunningQueries.key(r.ownerId, r.queryId);
    if (this.byKey.get(key) === r) this.byKey.delete(key);
  }

  /**
   * The running queries a cancel of `queryId` stops, marked as cancelled: the caller's own query with that id; for a
   * SuperUser without one, every user's query with that id. Another user's query is Forbidden, an unknown id NotFound.
   */
  claimForCancel(queryId: string, viewer: { id: string; superuser: boolean }): Running[] {
    const own = this.byKey.get(RunningQueries.key(viewer.id, queryId));
    const targets = own ? [own] : [...this.byKey.values()].filter((r) => r.queryId === queryId);
    if (!targets.length) throw new NotFound(`no query with query_id ${queryId} is running (it may have finished)`);
    if (!own && !viewer.superuser) throw new Forbidden(`query ${queryId} belongs to another user: only its owner or a SuperUser may cancel it`);
    for (const r of targets) r.cancelled = true;
    return targets;
  }
}
