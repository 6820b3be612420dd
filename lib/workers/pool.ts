import os from 'node:os';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { abortError, currentRequestScope } from '../request-scope.js';
import type { NamedTask } from './task-runner.js';
import { FairQueue } from './fair-queue.js';

/**
 * The process's pool of worker threads for CPU-heavy work (parsing and planning large imports, graph algorithms,
 * statistics): the thread that serves requests only hands work over and gets results back. One pool per process,
 * created on first use and sized to leave a core for the request thread.
 *
 * A task is an exported async function of a module that imports nothing from the request side (its input and result
 * are structured-cloned). `runTask` passes the current request's abort signal, so a request that times out or is
 * abandoned stops its task: Piscina terminates the thread running it and starts a fresh one.
 *
 * Tasks wait in a fair queue (fair-queue.ts) rather than in Piscina's first-come one: owners take turns, and one owner
 * runs at most PER_OWNER tasks at once, fewer than the pool has threads, so another user's small task never waits
 * behind a queue of one user's heavy ones. Piscina is never handed more tasks than it has threads.
 */
let pool: Piscina | null = null;

/**
 * At least two threads even on a two-core host: with one, a user's long task would hold every other user's work
 * whatever the queue's order. The threads run below the request thread's priority (thread-priority.ts).
 */
const THREADS = Math.max(2, Math.min(4, os.availableParallelism() - 1));
/** What one owner may run at once: half the threads, so two busy owners leave room for a third. */
const PER_OWNER = Math.max(1, Math.floor(THREADS / 2));

interface Waiter {
  start(): void;
}
const queue = new FairQueue<Waiter>(THREADS, PER_OWNER);

function startAdmitted(): void {
  for (const { item } of queue.take()) item.start();
}

/**
 * Resolves when `owner` may start a task, with the function to call when it ends; rejects with the abort's Timeout
 * when `signal` aborts while it waits, leaving the queue without it.
 */
function admit(owner: string, signal: AbortSignal | undefined): Promise<() => void> {
  return new Promise((resolve, reject) => {
    let ended = false;
    const onAbort = () => {
      if (queue.remove(owner, waiter)) reject(abortError(signal!));
    };
    const waiter: Waiter = {
      start() {
        signal?.removeEventListener('abort', onAbort);
        resolve(() => {
          if (ended) return;
          ended = true;
          queue.done(owner);
          startAdmitted();
        });
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    queue.push(owner, waiter);
    startAdmitted();
  });
}

/**
 * Whether this process runs the compiled build (dist/, plain node) rather than the TypeScript sources (tsx, vitest):
 * the extension this very module was loaded with tells, and every module of a process runs the same way.
 */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * The file a worker thread imports for a task module named by its source URL (`new URL('./x.task.ts',
 * import.meta.url)`): in the compiled build that name points into dist/, where the module is the .js file beside
 * its caller; from the sources a .js name whose file does not exist means the .ts file beside it.
 */
export function taskModuleHref(moduleUrl: URL): string {
  if (COMPILED) return moduleUrl.href.replace(/\.([cm]?)ts$/, '.$1js');
  if (/\.[cm]?js$/.test(moduleUrl.pathname) && !existsSync(moduleUrl)) return moduleUrl.href.replace(/\.([cm]?)js$/, '.$1ts');
  return moduleUrl.href;
}

/**
 * Worker threads running the sources need the TypeScript loader, which the host may not have given them (vitest, a
 * plain node). The compiled build needs none, and a production install may not even have tsx.
 */
function workerExecArgv(): string[] | undefined {
  if (COMPILED) return undefined;
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--import', tsxLoader];
}

/** Every task goes through this module (task-runner.ts), which lowers its thread's priority before the first. */
const TASK_RUNNER = new URL('./task-runner.ts', import.meta.url);

function workerPool(): Piscina {
  if (!pool) {
    pool = new Piscina({
      minThreads: 0,
      maxThreads: THREADS,
      idleTimeout: 30_000,
      execArgv: workerExecArgv(),
    });
    // A task aborted just as its thread finished still delivers its result, which Piscina reports as an 'error' event
    // ("Unexpected message from Worker"). Its caller has already been answered; without a listener the event would
    // be thrown and end the process.
    pool.on('error', (err: Error) => {
      if (!/Unexpected message from Worker/.test(err.message)) process.emitWarning(err);
    });
  }
  return pool;
}

export interface TaskOptions {
  signal?: AbortSignal;
  /**
   * Receives what the task reports while it runs (a job's progress). The task gets a `progressPort` in its input
   * and reports with `reportProgress(input.progressPort, value)` (./progress.ts).
   */
  onProgress?: (value: unknown) => void;
  /**
   * Whose task it is, for the pool's fair shares (`taskOwner`). Unset: the current request's owner, else the
   * request itself; work outside any request shares one key.
   */
  owner?: string;
}

/** The fair-share key of a caller: the signed-in account, else the client's address. */
export function taskOwner(ctx: { viewer?: { id: string } | null; clientIp?: string }): string | undefined {
  if (ctx.viewer) return `user:${ctx.viewer.id}`;
  return ctx.clientIp ? `ip:${ctx.clientIp}` : undefined;
}

/** Runs `name` of module `moduleUrl` (pass `new URL('./x.task.ts', import.meta.url)`) on a worker thread. */
export async function runTask<T>(moduleUrl: URL, name: string, input: unknown, opts: TaskOptions = {}): Promise<T> {
  const scope = currentRequestScope();
  const signal = opts.signal ?? scope?.signal;
  if (signal?.aborted) throw abortError(signal);
  const owner = opts.owner ?? scope?.owner ?? (scope ? `request:${scope.requestId}` : 'background');
  const release = await admit(owner, signal);
  let channel: MessageChannel | undefined;
  let task = input;
  if (opts.onProgress) {
    channel = new MessageChannel();
    const onProgress = opts.onProgress;
    channel.port1.on('message', (value: unknown) => onProgress(value));
    task = { ...(input as object), progressPort: channel.port2 };
  }
  try {
    return (await workerPool().run({ href: taskModuleHref(moduleUrl), name, input: task } satisfies NamedTask, {
      filename: taskModuleHref(TASK_RUNNER),
      name: 'runNamedTask',
      signal,
      ...(channel ? { transferList: [channel.port2] } : {}),
    })) as T;
  } catch (e) {
    if (signal?.aborted) throw abortError(signal);
    throw e;
  } finally {
    channel?.port1.close();
    release();
  }
}

/** What the pool runs and holds waiting now, by owner, with its size and per-owner cap. */
export function workerPoolLoad(): { threads: number; perOwner: number; owners: Record<string, { running: number; waiting: number }> } {
  return { threads: THREADS, perOwner: PER_OWNER, owners: queue.load() };
}

/** The ids of the pool's live threads: a task stopped by its request's abort leaves with its thread. */
export function workerThreadIds(): number[] {
  return pool ? pool.threads.map((t) => t.threadId) : [];
}

/** Stops the pool's threads (at process shutdown); a later task starts a new pool. */
export async function closeWorkerPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
