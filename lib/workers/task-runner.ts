import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import './thread-priority.js';

/** A task as runTask (pool.ts) hands it to a thread: the module and export that run it, and their input. */
export interface NamedTask {
  href: string;
  name: string;
  input: unknown;
}

/**
 * Loads a task module as Piscina would: the compiled build's with import(), the sources' through the TypeScript
 * loader's require hook, which is the one a pool thread has (its ESM hooks do not reach worker threads on Node 20).
 */
const loadModule = (href: string): Promise<unknown> =>
  href.endsWith('.ts') ? Promise.resolve(createRequire(import.meta.url)(fileURLToPath(href))) : import(href);

/**
 * The one entry point of the pool's threads: loads the task's module (once per thread; the module system keeps it)
 * and runs the named export. Importing this module first lowers the thread's priority (thread-priority.ts).
 */
export async function runNamedTask(task: NamedTask): Promise<unknown> {
  const module = (await loadModule(task.href)) as Record<string, unknown>;
  const run = module[task.name];
  if (typeof run !== 'function') throw new Error(`${task.href} has no task named ${task.name}`);
  return (run as (input: unknown) => unknown)(task.input);
}
