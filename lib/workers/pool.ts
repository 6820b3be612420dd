import os from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { abortError, currentRequestScope } from '../request-scope.js';

/**
 * The process's pool of worker threads for CPU-heavy work (parsing and planning large imports, graph algorithms,
 * statistics): the thread that serves requests only hands work over and gets results back. One pool per process,
 * created on first use and sized to leave a core for the request thread.
 *
 * A task is an exported async function of a module that imports nothing from the request side (its input and result
 * are structured-cloned). `runTask` passes the current request's abort signal, so a request that times out or is
 * abandoned stops its task: Piscina terminates the thread running it and starts a fresh one.
 */
let pool: Piscina | null = null;

const require = createRequire(import.meta.url);
// Worker threads need the TypeScript loader too; the host may not have given it to them (vitest, a plain node).
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;

function workerPool(): Piscina {
  pool ??= new Piscina({
    minThreads: 0,
    maxThreads: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    idleTimeout: 30_000,
    execArgv: ['--import', TSX_LOADER],
  });
  return pool;
}

/** Runs `name` of module `moduleUrl` (pass `new URL('./x.task.ts', import.meta.url)`) on a worker thread. */
export async function runTask<T>(moduleUrl: URL, name: string, input: unknown, opts: { signal?: AbortSignal } = {}): Promise<T> {
  const signal = opts.signal ?? currentRequestScope()?.signal;
  if (signal?.aborted) throw abortError(signal);
  try {
    return (await workerPool().run(input, { filename: moduleUrl.href, name, signal })) as T;
  } catch (e) {
    if (signal?.aborted) throw abortError(signal);
    throw e;
  }
}

/** Stops the pool's threads (at process shutdown); a later task starts a new pool. */
export async function closeWorkerPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
