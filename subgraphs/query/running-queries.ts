import { Conflict, Forbidden, NotFound } from '../../lib/errors.js';

interface Running {
  ownerId: string;
  /** The id the engine runs it under: the owner's id is part of it, so two users may choose the same query_id. */
  engineId: string;
  cancelled: boolean;
  startedAt: number;
}

/**
 * The SyQL queries this process is running, by the query_id their callers chose: who owns each (only they or a
 * SuperUser may cancel it) and whether a cancel reached it, so the waiting exec can say why it stopped.
 */
export class RunningQueries {
  private readonly byId = new Map<string, Running>();

  static engineId(ownerId: string, queryId: string): string {
    return `syql-${ownerId.replace(/-/g, '')}-${queryId}`;
  }

  /** Registers a query about to run; a query_id already running for anyone is a conflict. */
  start(ownerId: string, queryId: string): Running {
    if (this.byId.has(queryId)) throw new Conflict(`query_id ${queryId} is already running: choose another, or cancel it first`);
    const r: Running = { ownerId, engineId: RunningQueries.engineId(ownerId, queryId), cancelled: false, startedAt: Date.now() };
    this.byId.set(queryId, r);
    return r;
  }

  finish(queryId: string, r: Running): void {
    if (this.byId.get(queryId) === r) this.byId.delete(queryId);
  }

  /** The running query a caller may cancel, marked as cancelled; refuses another user's query and unknown ids. */
  claimForCancel(queryId: string, viewer: { id: string; superuser: boolean }): Running {
    const r = this.byId.get(queryId);
    if (!r) throw new NotFound(`no query with query_id ${queryId} is running (it may have finished)`);
    if (r.ownerId !== viewer.id && !viewer.superuser) throw new Forbidden(`query ${queryId} belongs to another user: only its owner or a SuperUser may cancel it`);
    r.cancelled = true;
    return r;
  }
}
