import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * Loaded by every thread of the worker pool before its first task (task-runner.ts): on Linux the nice value is a thread's own,
 * and the pool's threads take the next one up from the process's, so that on a busy machine the request thread (and
 * with it /health, and every small request) gets a core before an import's parsing or a graph algorithm does. The
 * heavy work still gets every cycle nothing else wants.
 */
export const WORKER_NICE_INCREMENT = 10;

if (!isMainThread) {
  try {
    os.setPriority(Math.min(19, os.getPriority() + WORKER_NICE_INCREMENT));
  } catch {
    // Not permitted here (some containers): the threads run at the process's priority, as before.
  }
}
