/**
 * A set of arcs (u, v) of node ids: open addressing with linear probing over one Int32Array of (u, v) pairs, so
 * that a probe reads one cache line, and deletion by backward shifting so that no tombstones pile up while a
 * graph is rewired.
 */
export class ArcSet {
  /** Slot i holds u at 2i and v at 2i + 1; u = -1 marks an empty slot. */
  private readonly table: Int32Array;
  private readonly mask: number;
  private count = 0;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.table = new Int32Array(2 * size).fill(-1);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  has(u: number, v: number): boolean {
    const { table, mask } = this;
    for (let i = home(u, v, mask); ; i = (i + 1) & mask) {
      const x = table[2 * i];
      if (x === u && table[2 * i + 1] === v) return true;
      if (x < 0) return false;
    }
  }

  /** Adds (u, v); false when it was there already. */
  add(u: number, v: number): boolean {
    const { table, mask } = this;
    for (let i = home(u, v, mask); ; i = (i + 1) & mask) {
      const x = table[2 * i];
      if (x === u && table[2 * i + 1] === v) return false;
      if (x < 0) {
        table[2 * i] = u;
        table[2 * i + 1] = v;
        this.count++;
        return true;
      }
    }
  }

  /**
   * Reads the slot where (u, v) would start its probe, and nothing else. A caller that knows which arcs it will look
   * up next touches them first, in a loop without dependencies, so that the processor overlaps their cache misses.
   */
  touch(u: number, v: number): number {
    return this.table[2 * home(u, v, this.mask)];
  }

  delete(u: number, v: number): boolean {
    const { table, mask } = this;
    let i = home(u, v, mask);
    for (; !(table[2 * i] === u && table[2 * i + 1] === v); i = (i + 1) & mask) if (table[2 * i] < 0) return false;
    // Move back every later entry of the probe run whose home does not lie cyclically in (hole, entry].
    for (let j = (i + 1) & mask; table[2 * j] >= 0; j = (j + 1) & mask) {
      const h = home(table[2 * j], table[2 * j + 1], mask);
      const stays = i <= j ? i < h && h <= j : i < h || h <= j;
      if (stays) continue;
      table[2 * i] = table[2 * j];
      table[2 * i + 1] = table[2 * j + 1];
      i = j;
    }
    table[2 * i] = -1;
    this.count--;
    return true;
  }
}

function home(u: number, v: number, mask: number): number {
  let h = Math.imul(u, 0x9e3779b1) ^ Math.imul(v + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h & mask;
}
