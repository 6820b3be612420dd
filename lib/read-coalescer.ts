import { abortError, currentRequestScope, outsideRequestScope, runInRequestScope } from './request-scope.js';

/** Most keys one read is asked for, unless told otherwise; the rest wait for the next read. */
export const COALESCED_BATCH_MAX = 256;

export interface ReadCoalescerOptions {
  /** Most keys one read is asked for; keys beyond it wait for the next read. */
  maxBatch?: number;
  /** Reads running at once; keys asked for meanwhile queue for the next one. */
  maxInFlight?: number;
}

interface Waiter<V> {
  settled: boolean;
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** The caller's request, which names the shared read it waits for. */
  requestId?: string;
  deadline?: number;
  /** The read it waits for, once that has started. */
  read?: RunningRead<V>;
}

interface RunningRead<V> {
  waiters: Waiter<V>[];
  /** Aborted when every caller waiting for the read has gone. */
  controller: AbortController;
}

/**
 * Answers single-key reads of many concurrent requests with shared many-key reads: a key asked for while no read
 * is running goes out on the next tick, with every other key asked for by then; keys asked for while reads are
 * running (at most `maxInFlight`) queue and go out together, at most `maxBatch` per read, when one ends. So eight
 * concurrent requests cost one round trip instead of eight.
 *
 * Nothing is cached: a key never joins a read that has already started, so every answer comes from a read that
 * started after it was asked for. A read runs in a request scope of its own, so no single request can stop a read
 * that others wait for: each caller's own abort signal (by default its request's) answers that caller alone at
 * once, with the request's Timeout, and takes its key out of the queue when no one else waits for it; the read's
 * signal aborts (and its statement is cancelled) only when every caller waiting for it has gone. A failed read fails
 * every caller waiting for it, with its error.
 */
export class ReadCoalescer<K, V> {
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  /** Keys waiting for the next read, in the order they were first asked for. */
  private readonly queued = new Map<K, Set<Waiter<V>>>();
  private running = 0;
  private scheduled = false;

  /** `readMany` returns what it found by key; a key it leaves out is answered with undefined. */
  constructor(
    private readonly readMany: (keys: K[]) => Promise<ReadonlyMap<K, V>>,
    opts: ReadCoalescerOptions = {},
  ) {
    this.maxBatch = Math.max(1, opts.maxBatch ?? COALESCED_BATCH_MAX);
    this.maxInFlight = Math.max(1, opts.maxInFlight ?? 1);
  }

  /** The value of `key` from a read that starts after this call; undefined when the read did not find it. */
  load(key: K, signal: AbortSignal | undefined = currentRequestScope()?.signal): Promise<V | undefined> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const scope = currentRequestScope();
    return new Promise<V | undefined>((resolve, reject) => {
      const waiter: Waiter<V> = { settled: false, resolve, reject, signal, requestId: scope?.requestId, deadline: scope?.deadline };
      let waiting = this.queued.get(key);
      if (!waiting) this.queued.set(key, (waiting = new Set()));
      waiting.add(waiter);
      if (signal) {
        waiter.onAbort = () => {
          const still = this.queued.get(key);
          if (still?.delete(waiter) && still.size === 0) this.queued.delete(key);
          settle(waiter, () => waiter.reject(abortError(signal)));
          const read = waiter.read;
          if (read && read.waiters.every((w) => w.settled)) read.controller.abort(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.maxInFlight || this.queued.size === 0) return;
    this.scheduled = true;
    // The tick (and the read it starts) must not belong to the request that happened to ask first.
    outsideRequestScope(() =>
      process.nextTick(() => {
        this.scheduled = false;
        this.dispatch();
      }),
    );
  }

  private dispatch(): void {
    while (this.running < this.maxInFlight && this.queued.size > 0) {
      const batch = new Map<K, Set<Waiter<V>>>();
      for (const [key, waiting] of this.queued) {
        if (batch.size >= this.maxBatch) break;
        batch.set(key, waiting);
      }
      for (const key of batch.keys()) this.queued.delete(key);
      this.running++;
      void this.read(batch);
    }
  }

  private async read(batch: Map<K, Set<Waiter<V>>>): Promise<void> {
    let found: ReadonlyMap<K, V> | undefined;
    let failure: { error: unknown } | undefined;
    const read: RunningRead<V> = { waiters: [...batch.values()].flatMap((w) => [...w]), controller: new AbortController() };
    for (const w of read.waiters) w.read = read;
    // Named after its first caller, so logs and query ids tie the statement to a request; it lasts as long as the
    // latest deadline among its callers, or without one when a caller has none.
    const deadlines = read.waiters.map((w) => w.deadline);
    const scope = {
      requestId: `${read.waiters.find((w) => w.requestId)?.requestId ?? 'read'}-shared`,
      signal: read.controller.signal,
      deadline: deadlines.every((d) => d !== undefined) ? Math.max(...(deadlines as number[])) : undefined,
    };
    try {
      found = await runInRequestScope(scope, () => this.readMany([...batch.keys()]));
    } catch (error) {
      failure = { error };
    }
    this.running--;
    for (const [key, waiting] of batch) {
      for (const w of waiting) settle(w, failure ? () => w.reject(failure.error) : () => w.resolve(found!.get(key)));
    }
    // The callers answered just now ask again in their continuations, before the tick: they join the next read.
    this.schedule();
  }
}

function settle<V>(w: Waiter<V>, answer: () => void): void {
  if (w.settled) return;
  w.settled = true;
  if (w.onAbort) w.signal!.removeEventListener('abort', w.onAbort);
  answer();
}
