import { describe, it, expect } from 'vitest';
import { NotifiedCache } from './notified-cache.js';

describe(NotifiedCache.name, () => {
  const counting = () => {
    let reads = 0;
    return { read: async () => `value ${++reads}`, reads: () => reads };
  };

  it('keeps nothing until its channel is followed', async () => {
    const cache = new NotifiedCache<string, string>(10);
    const r = counting();
    await cache.get('a', r.read);
    await cache.get('a', r.read);
    expect(r.reads()).toBe(2);
    cache.follow('listening');
    await cache.get('a', r.read);
    expect(await cache.get('a', r.read)).toBe('value 3');
    expect(r.reads()).toBe(3);
  });

  it('forgets everything on a notice, and keeps nothing from a read that a notice overtook', async () => {
    const cache = new NotifiedCache<string, string>(10);
    cache.follow('listening');
    const r = counting();
    await cache.get('a', r.read);
    cache.follow('notice');
    expect(await cache.get('a', r.read)).toBe('value 2');
    let release!: () => void;
    const slow = cache.get('b', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return 'stale b';
    });
    cache.follow('notice');
    release();
    expect(await slow).toBe('stale b');
    expect(await cache.get('b', async () => 'fresh b')).toBe('fresh b');
    expect(await cache.get('b', async () => 'not read')).toBe('fresh b');
  });

  it('keeps nothing from a lost connection until it follows again, and forgets on forget()', async () => {
    const cache = new NotifiedCache<string, string>(10);
    cache.follow('listening');
    await cache.get('a', async () => 'kept');
    cache.follow('lost');
    expect(await cache.get('a', async () => 'read 1')).toBe('read 1');
    expect(await cache.get('a', async () => 'read 2')).toBe('read 2');
    cache.follow('notice');
    expect(await cache.get('a', async () => 'read 3')).toBe('read 3');
    cache.follow('listening');
    await cache.get('a', async () => 'kept again');
    expect(await cache.get('a', async () => 'not read')).toBe('kept again');
    cache.forget();
    expect(await cache.get('a', async () => 'after forget')).toBe('after forget');
  });

  it('does not keep what the read did not find', async () => {
    const cache = new NotifiedCache<string, string>(10);
    cache.follow('listening');
    expect(await cache.get('x', async () => undefined)).toBeUndefined();
    expect(await cache.get('x', async () => 'created since')).toBe('created since');
  });
});
