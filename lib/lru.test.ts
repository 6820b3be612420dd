import { describe, it, expect } from 'vitest';
import { LruCache } from './lru.js';

describe(LruCache.name, () => {
  it('holds at most its bound, forgetting the oldest insertion first', () => {
    const lru = new LruCache<number, string>(3);
    for (let i = 0; i < 5; i++) lru.set(i, `v${i}`);
    expect(lru.size).toBe(3);
    expect([0, 1, 2, 3, 4].map((i) => lru.get(i))).toEqual([undefined, undefined, 'v2', 'v3', 'v4']);
  });

  it('never forgets an entry read at least once per half a bound of insertions', () => {
    for (const max of [1, 2, 3, 10, 101]) {
      const lru = new LruCache<string, number>(max);
      lru.set('hot', 1);
      const every = Math.max(1, max >> 1);
      for (let i = 1; i <= 1000; i++) {
        lru.set(`cold ${i}`, i);
        if (i % every === 0 || max === 1) {
          if (max === 1) lru.set('hot', 1);
          expect(lru.get('hot'), `bound ${max}, after ${i} insertions`).toBe(1);
        }
      }
      expect(lru.size).toBe(max);
    }
  });

  it('replaces a value set again, and forgets on delete and clear', () => {
    const lru = new LruCache<string, number>(4);
    lru.set('a', 1);
    lru.set('a', 2);
    expect(lru.get('a')).toBe(2);
    expect(lru.size).toBe(1);
    lru.delete('a');
    expect(lru.get('a')).toBeUndefined();
    lru.set('b', 1);
    lru.clear();
    expect(lru.size).toBe(0);
  });
});
