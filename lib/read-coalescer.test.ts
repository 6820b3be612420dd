import { describe, it, expect } from 'vitest';
import { ReadCoalescer } from './read-coalescer.js';
import { currentRequestScope, runInRequestScope } from './request-scope.js';
import { Timeout } from './errors.js';

/** A many-key read that records what it was asked and answers when the test says so. */
function reader(values: Record<string, number>) {
  const reads: { keys: string[]; scope: ReturnType<typeof currentRequestScope>; answer(): void; fail(e: Error): void }[] = [];
  const readMany = (keys: string[]) =>
    new Promise<Map<string, number>>((resolve, reject) => {
      reads.push({
        keys,
        scope: currentRequestScope(),
        answer: () => resolve(new Map(keys.filter((k) => k in values).map((k) => [k, values[k]]))),
        fail: reject,
      });
    });
  return { reads, readMany };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe(ReadCoalescer.name, () => {
  it('answers concurrent callers with one read, each with its own value or undefined', async () => {
    const { reads, readMany } = reader({ a: 1, b: 2 });
    const c = new ReadCoalescer(readMany);
    const answers = Promise.all([c.load('a'), c.load('b'), c.load('a'), c.load('x')]);
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([['a', 'b', 'x']]);
    reads[0].answer();
    expect(await answers).toEqual([1, 2, 1, undefined]);
  });

  it('never lets a caller join a read that started before it asked: it waits for the next one', async () => {
    const { reads, readMany } = reader({ a: 1, b: 2 });
    const c = new ReadCoalescer(readMany);
    const first = c.load('a');
    await tick();
    const late = [c.load('a'), c.load('b')];
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([['a']]);
    reads[0].answer();
    expect(await first).toBe(1);
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([['a'], ['a', 'b']]);
    reads[1].answer();
    expect(await Promise.all(late)).toEqual([1, 2]);
  });

  it('answers an aborted caller with its Timeout at once and still answers the others from the shared read', async () => {
    const { reads, readMany } = reader({ a: 1, b: 2 });
    const c = new ReadCoalescer(readMany);
    const gone = new AbortController();
    const aborted = runInRequestScope({ requestId: 'r1', signal: gone.signal }, () => c.load('a'));
    const other = runInRequestScope({ requestId: 'r2', signal: new AbortController().signal }, () => c.load('b'));
    await tick();
    // The read has a scope of its own, so the first caller going away cannot stop it.
    expect(reads).toMatchObject([{ keys: ['a', 'b'], scope: { requestId: 'r1-shared' } }]);
    gone.abort(new Error('client went away'));
    await expect(aborted).rejects.toBeInstanceOf(Timeout);
    expect(reads[0].scope!.signal.aborted).toBe(false);
    reads[0].answer();
    expect(await other).toBe(2);
  });

  it("aborts a read's own signal, which its statements honour, once every caller waiting for it has gone", async () => {
    const { reads, readMany } = reader({ a: 1 });
    const c = new ReadCoalescer(readMany);
    const callers = [new AbortController(), new AbortController()];
    const answers = callers.map((gone, i) => runInRequestScope({ requestId: `r${i}`, signal: gone.signal, deadline: Date.now() + 1000 * (i + 1) }, () => c.load('a')));
    await tick();
    const scope = reads[0].scope!;
    // It may run as long as its most patient caller would wait.
    expect(scope.deadline).toBeGreaterThan(Date.now() + 1500);
    callers[0].abort(new Error('client went away'));
    expect(scope.signal.aborted).toBe(false);
    callers[1].abort(new Error('deadline'));
    expect(scope.signal.aborted).toBe(true);
    for (const a of answers) await expect(a).rejects.toBeInstanceOf(Timeout);
  });

  it('leaves out of the next read a key whose only caller was aborted while it queued, and refuses an aborted caller', async () => {
    const { reads, readMany } = reader({ a: 1, b: 2, c: 3 });
    const c = new ReadCoalescer(readMany);
    const first = c.load('a');
    await tick();
    const gone = new AbortController();
    const dropped = c.load('b', gone.signal);
    const kept = c.load('c');
    gone.abort();
    await expect(dropped).rejects.toBeInstanceOf(Timeout);
    await expect(c.load('a', gone.signal)).rejects.toBeInstanceOf(Timeout);
    reads[0].answer();
    await first;
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([['a'], ['c']]);
    reads[1].answer();
    expect(await kept).toBe(3);
  });

  it('fails every caller of a failed read with its error, and reads again for the next callers', async () => {
    const { reads, readMany } = reader({ a: 1 });
    const c = new ReadCoalescer(readMany);
    const both = [c.load('a'), c.load('b')];
    await tick();
    const error = new Error('connection lost');
    reads[0].fail(error);
    for (const p of both) await expect(p).rejects.toBe(error);
    const again = c.load('a');
    await tick();
    reads[1].answer();
    expect(await again).toBe(1);
  });

  it('asks one read for at most maxBatch keys and runs at most maxInFlight reads at once', async () => {
    const values = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, i]));
    const { reads, readMany } = reader(values);
    const c = new ReadCoalescer(readMany, { maxBatch: 3, maxInFlight: 2 });
    const answers = Promise.all(Object.keys(values).map((k) => c.load(k)));
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([
      ['k0', 'k1', 'k2'],
      ['k3', 'k4', 'k5'],
    ]);
    reads[0].answer();
    await tick();
    expect(reads.map((r) => r.keys)).toHaveLength(3);
    expect(reads[2].keys).toEqual(['k6']);
    reads[1].answer();
    reads[2].answer();
    expect(await answers).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
