import type { Stores } from '../lib/stores.js';
import { outsideRequestScope } from '../lib/request-scope.js';

export type ComponentStatus = { status: 'ok' | 'error' | 'not_configured'; latency_ms?: number; error?: string };
export interface HealthReport {
  status: 'healthy' | 'degraded';
  components: { relational_db: ComponentStatus; column_db: ComponentStatus; storage: ComponentStatus; search: ComponentStatus };
}

type ComponentName = keyof HealthReport['components'];

/** What a failing component's `error` says to callers: which component, never the driver's message. */
const UNAVAILABLE: Record<ComponentName, string> = {
  relational_db: 'the relational database is unavailable',
  column_db: 'the column store is unavailable',
  storage: 'object storage is unavailable',
  search: 'search is unavailable',
};

/** Where the raw failures of the checks go: the operators' log, never the report. */
export interface HealthLog {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

class NoAnswer extends Error {}

async function timed(name: ComponentName, check: () => Promise<void>, deadline: Promise<never>, withLatency: boolean, onFailure: (name: ComponentName, err: unknown) => void): Promise<ComponentStatus> {
  const started = performance.now();
  try {
    await Promise.race([check(), deadline]);
    const latency = Math.max(0, Math.round(performance.now() - started));
    return withLatency ? { status: 'ok', latency_ms: latency } : { status: 'ok' };
  } catch (e) {
    const latency = Math.max(0, Math.round(performance.now() - started));
    onFailure(name, e);
    // A driver's message may hold file paths, hosts or the store's reply: /health answers anyone, so it says only
    // which component failed and whether it answered at all.
    const failure: ComponentStatus = { status: 'error', error: e instanceof NoAnswer ? e.message : UNAVAILABLE[name] };
    return withLatency ? { ...failure, latency_ms: latency } : failure;
  }
}

/**
 * Spec 2.4: each required component answers a real round trip within the timeout; search counts only when it is
 * configured. Checks run in parallel so a dead component costs one timeout, not several; they share one deadline
 * (one timer, one abort signal per check rather than per component: /health is polled).
 */
export async function checkHealth(stores: Stores, timeoutMs: number, onFailure: (name: ComponentName, err: unknown) => void = () => {}): Promise<HealthReport> {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ac.abort();
      reject(new NoAnswer(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  // Each component's race reads the rejection; this keeps an unread one from counting as unhandled.
  deadline.catch(() => {});
  try {
    const [relational_db, column_db, storage, search] = await Promise.all([
      timed('relational_db', () => stores.relational.ping(), deadline, true, onFailure),
      timed('column_db', () => stores.column.ping(), deadline, true, onFailure),
      timed('storage', () => stores.objects.ping(), deadline, true, onFailure),
      stores.search.kind === 'none'
        ? Promise.resolve<ComponentStatus>({ status: 'not_configured' })
        : timed('search', () => stores.search.ping(ac.signal), deadline, false, onFailure),
    ]);
    const components = { relational_db, column_db, storage, search };
    const healthy = Object.values(components).every((c) => c.status === 'ok' || c.status === 'not_configured');
    return { status: healthy ? 'healthy' : 'degraded', components };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `checkHealth` for many callers at once: a request that arrives while a check is running shares its answer, and
 * one that arrives after it ended starts the next. So an answer always comes from round trips that ended after its
 * request arrived (a component that dies is reported by the next check, never hidden by an earlier answer), while
 * a burst of polls costs one set of round trips instead of one per poll.
 *
 * While polls arrive faster than checks end (some request joined the check that just ended), the next check starts
 * as that one ends, rather than when the next poll arrives: the polls that follow, which arrive while the answers
 * are being sent, then wait only for what is left of it. It is still a check that ends after they arrive; a check
 * that nobody joined ends the chain, so a burst costs at most one check more.
 */
export function sharedHealthCheck(stores: Stores, timeoutMs: number, log?: HealthLog): () => Promise<HealthReport> {
  let running: Promise<HealthReport> | undefined;
  let joined = 0;
  // The raw failure last logged per component: a monitor polling a dead store logs it once, and again when the
  // failure changes or the component is back.
  const failing = new Map<ComponentName, string>();
  const onFailure = (name: ComponentName, err: unknown) => {
    const raw = err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : String(err);
    if (failing.get(name) === raw) return;
    failing.set(name, raw);
    log?.error({ component: name, err: (err as { cause?: unknown }).cause ?? err }, 'health check failed');
  };
  const noteRecoveries = (report: HealthReport) => {
    for (const [name, c] of Object.entries(report.components) as [ComponentName, ComponentStatus][]) {
      if (c.status !== 'error' && failing.delete(name)) log?.info({ component: name }, 'health check passes again');
    }
  };
  const start = (): Promise<HealthReport> => {
    // Outside the scope of the request that happens to start it: that request going away must not stop a check
    // that others wait for (each check has its own timeout).
    const check = outsideRequestScope(() => checkHealth(stores, timeoutMs, onFailure));
    check.then(noteRecoveries, () => {});
    running = check;
    joined = 0;
    // Settled in the check's first continuation: before the event loop reads any further request, so none that
    // arrives after the check ended can join it.
    const settle = () => {
      if (running !== check) return;
      running = undefined;
      if (joined > 0) start();
    };
    check.then(settle, settle);
    return check;
  };
  return () => {
    if (!running) return start();
    joined++;
    return running;
  };
}
