import { describe, it, expect, afterAll } from 'vitest';
import { eventually } from '../../test/kit/eventually.js';
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

describe('the worker pool shared between owners', () => {
  const PROBE = new URL('../../test/kit/thread-probe.task.ts', import.meta.url);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const release = () => {
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  afterAll(release);

  it("runs another owner's task while one owner's fill their share, and drops a waiting task whose caller gave up", async () => {
    const { runTask, workerPoolLoad } = await import('./pool.js');
    const { perOwner, threads } = workerPoolLoad();
    expect(perOwner).toBeLessThan(threads);
    const held = Array.from({ length: perOwner + 2 }, () => runTask<true>(PROBE, 'holdUntilReleased', { flag }, { owner: 'busy' }));
    const gaveUp = new AbortController();
    const abandoned = runTask(PROBE, 'holdUntilReleased', { flag }, { owner: 'busy', signal: gaveUp.signal });
    await eventually(() => workerPoolLoad().owners.busy?.running === perOwner && workerPoolLoad().owners.busy.waiting === 3, { what: "the busy owner's share full and three waiting" });

    expect(typeof (await runTask<number>(PROBE, 'threadPriority', {}, { owner: 'other' }))).toBe('number');
    expect(workerPoolLoad().owners.busy).toEqual({ running: perOwner, waiting: 3 });

    gaveUp.abort(new Error('client closed the connection'));
    await expect(abandoned).rejects.toMatchObject({ extensions: { code: 'TIMEOUT' } });
    expect(workerPoolLoad().owners.busy).toEqual({ running: perOwner, waiting: 2 });

    release();
    expect(await Promise.all(held)).toEqual(held.map(() => true));
    expect(workerPoolLoad().owners.busy).toBeUndefined();
  });
});
