/**
 * A bounded map that forgets the least recently used entry first, nearly: an entry read is moved to the recent
 * end only when more than a quarter of the bound has been inserted since it was last moved there. So a read of an
 * entry in use (the operations of a busy service, read on every request) is one lookup, not a delete and an insert,
 * and an entry read at least once per half a bound of insertions is never forgotten (it moves at most three
 * quarters of a bound after its last move, before the bound's worth of newer entries that would push it out).
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();
  /** Insertions and moves so far: where an entry stands in the order of use. */
  private clock = 0;

  constructor(readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.clock - entry.at > this.max >> 2) {
      // A Map keeps insertion order: inserting again makes this the most recent.
      this.entries.delete(key);
      entry.at = ++this.clock;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: ++this.clock });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
