import { AsyncLocalStorage } from 'node:async_hooks';
import { Timeout } from './errors.js';

/**
 * What every store call made on behalf of a request can see without being handed it: the request id (query
 * names, ClickHouse query ids) and the signal that aborts when the request times out or its client goes away.
 * The pipeline opens the scope when a request arrives, so it reaches in-process subgraphs, services, stores and
 * worker tasks alike; code may still pass a signal explicitly, which wins.
 */
export interface RequestScope {
  requestId: string;
  signal: AbortSignal;
  /** When the request times out (ms since the epoch), for work that can tell in advance it would not finish. */
  deadline?: number;
  /**
   * Who the work is for (`user:<id>`, or `ip:<address>` for an anonymous caller), set once the caller is known:
   * shared resources such as the worker pool divide their capacity fairly by it.
   */
  owner?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/**
 * A request's abort, with its AbortController made only when something asks for the signal: most small requests
 * (a ping, a cached read) never do, and an AbortController with its signal costs more than the rest of such a
 * request's bookkeeping. Aborting before anyone asked is remembered; the signal made later is aborted already, with
 * the same reason.
 */
export class RequestAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get aborted(): boolean {
    return this.#aborted;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** Runs `fn` (and everything it starts) inside `scope`. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** Runs `fn` (and everything it starts) outside any request's scope: work shared by several requests, which none of them may stop. */
export function outsideRequestScope<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** The scope of the request being served, if any (CLIs, start-up and background work have none). */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/** Milliseconds left before the current request's deadline; Infinity outside a request or without one. */
export function remainingRequestTime(): number {
  const deadline = currentRequestScope()?.deadline;
  return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
}

/** Throws the request's abort reason when it has been aborted; a cheap check between chunks of work. */
export function throwIfRequestAborted(signal: AbortSignal | undefined = currentRequestScope()?.signal): void {
  if (signal?.aborted) throw abortError(signal);
}

/** The error thrown when a request's work stops because the request was aborted: a Timeout, never a 500. */
export function abortError(signal: AbortSignal): Timeout {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'request aborted';
  return new Timeout(`the work behind this request was stopped: ${reason}`);
}
