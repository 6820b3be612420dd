import { describe, it, expect } from 'vitest';
import { FairQueue } from './fair-queue.js';

const started = (q: FairQueue<string>) => q.take().map((s) => s.item);

describe(FairQueue.name, () => {
  it("starts another owner's task before the rest of one owner's queue", () => {
    const q = new FairQueue<string>(1, 1);
    for (let i = 1; i <= 5; i++) q.push('a', `a${i}`);
    expect(started(q)).toEqual(['a1']);
    q.push('b', 'b1');
    q.done('a');
    expect(started(q)).toEqual(['b1']);
    q.done('b');
    expect(started(q)).toEqual(['a2']);
  });

  it('takes the owners in turns, one task each', () => {
    const q = new FairQueue<string>(1, 1);
    for (const item of ['a1', 'a2', 'a3', 'b1', 'b2', 'c1']) q.push(item[0], item);
    const order: string[] = [];
    for (let next = started(q); next.length; next = started(q)) {
      order.push(...next);
      q.done(next[0][0]);
    }
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it("never runs more than one owner's cap, leaving the rest of the pool to others", () => {
    const q = new FairQueue<string>(4, 2);
    for (let i = 1; i <= 10; i++) q.push('a', `a${i}`);
    expect(started(q)).toEqual(['a1', 'a2']);
    q.push('b', 'b1');
    q.push('c', 'c1');
    expect(started(q)).toEqual(['b1', 'c1']);
    expect(started(q)).toEqual([]);
    expect(q.load()).toEqual({ a: { running: 2, waiting: 8 }, b: { running: 1, waiting: 0 }, c: { running: 1, waiting: 0 } });
  });

  it('never runs more than its capacity', () => {
    const q = new FairQueue<string>(2, 2);
    for (const item of ['a1', 'b1', 'c1']) q.push(item[0], item);
    expect(started(q)).toEqual(['a1', 'b1']);
    q.done('b');
    expect(started(q)).toEqual(['c1']);
  });

  it('forgets a waiting task whose caller gave up, and reports one that already started', () => {
    const q = new FairQueue<string>(1, 1);
    q.push('a', 'a1');
    q.push('a', 'a2');
    q.push('b', 'b1');
    expect(started(q)).toEqual(['a1']);
    expect(q.remove('a', 'a1')).toBe(false);
    expect(q.remove('b', 'b1')).toBe(true);
    q.done('a');
    expect(started(q)).toEqual(['a2']);
    q.done('a');
    expect(q.load()).toEqual({});
  });
});
