import { describe, it, expect } from 'vitest';
import { taskModuleHref } from './pool.js';

// From the compiled build the same names resolve to the .js files of dist/: test/http/compiled-build.test.ts.
describe('taskModuleHref, running from the sources', () => {
  it('keeps the name of a task module that exists', () => {
    const url = new URL('./pool.ts', import.meta.url);
    expect(taskModuleHref(url)).toBe(url.href);
  });

  it('names the .ts file for a .js name whose file does not exist', () => {
    expect(taskModuleHref(new URL('./pool.js', import.meta.url))).toBe(new URL('./pool.ts', import.meta.url).href);
  });
});

describe('the worker pool', () => {
  it('runs its threads below the request thread, so a busy machine serves requests first', async () => {
    const { runTask } = await import('./pool.js');
    const { WORKER_NICE_INCREMENT } = await import('./thread-priority.js');
    const os = await import('node:os');
    const own = os.getPriority();
    const worker = await runTask<number>(new URL('../../test/kit/thread-probe.task.ts', import.meta.url), 'threadPriority', {});
    expect(worker).toBe(Math.min(19, own + WORKER_NICE_INCREMENT));
    expect(os.getPriority()).toBe(own);
  });
});
