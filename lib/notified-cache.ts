import type { ChannelEvent } from './db/relational.js';
import { LruCache } from './lru.js';

/**
 * Values read from the relational store, kept until the store announces a change (RelationalStore.subscribe: a
 * trigger's NOTIFY on every statement that writes the tables they come from). Nothing is kept or served while the
 * announcements may be missed: before the channel is followed, and from a lost connection until it follows again.
 *
 * A read that was running when a change was announced is not kept (the generation it started in has ended), so a
 * value kept was read after the last announcement this process received. What another process wrote is served
 * stale only between its commit and the arrival of its notice; what this process writes, the writer forgets with
 * `forget()` before it answers, so its next read is fresh.
 */
export class NotifiedCache<K, V> {
  private readonly entries: LruCache<K, V>;
  private generation = 0;
  private live = false;

  constructor(max: number) {
    this.entries = new LruCache(max);
  }

  /** The listener to give RelationalStore.subscribe. */
  readonly follow = (event: ChannelEvent): void => {
    this.forget();
    this.live = event !== 'lost' && (event === 'listening' || this.live);
  };

  /** The kept value of `key`, or `read()`'s, kept unless a change was announced while it ran. */
  async get(key: K, read: () => Promise<V | undefined>): Promise<V | undefined> {
    if (this.live) {
      const kept = this.entries.get(key);
      if (kept !== undefined) return kept;
    }
    const generation = this.generation;
    const value = await read();
    if (value !== undefined && this.live && generation === this.generation) this.entries.set(key, value);
    return value;
  }

  /** The kept value of `key`, if there is one and it can be trusted; never reads. */
  peek(key: K): V | undefined {
    return this.live ? this.entries.get(key) : undefined;
  }

  /** Forgets every kept value, and any read now running will not be kept. */
  forget(): void {
    this.generation++;
    this.entries.clear();
  }
}
