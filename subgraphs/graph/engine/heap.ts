/** A binary min-heap of node ids keyed by an external Float64Array, with decrease-key; no allocation per push. */
export class NodeHeap {
  private readonly heap: Int32Array;
  /** Position of each node in `heap`, or -1. */
  private readonly pos: Int32Array;
  private size = 0;

  constructor(
    n: number,
    private readonly key: Float64Array,
  ) {
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }

  get length(): number {
    return this.size;
  }

  /** Inserts v, or moves it up after its key decreased. */
  push(v: number): void {
    let i = this.pos[v];
    if (i < 0) {
      i = this.size++;
      this.heap[i] = v;
      this.pos[v] = i;
    }
    this.up(i);
  }

  pop(): number {
    const top = this.heap[0];
    this.pos[top] = -1;
    const last = this.heap[--this.size];
    if (this.size > 0) {
      this.heap[0] = last;
      this.pos[last] = 0;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const { heap, pos, key } = this;
    const v = heap[i];
    const k = key[v];
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = heap[p];
      if (key[u] <= k) break;
      heap[i] = u;
      pos[u] = i;
      i = p;
    }
    heap[i] = v;
    pos[v] = i;
  }

  private down(i: number): void {
    const { heap, pos, key } = this;
    const v = heap[i];
    const k = key[v];
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && key[heap[c + 1]] < key[heap[c]]) c++;
      const u = heap[c];
      if (key[u] >= k) break;
      heap[i] = u;
      pos[u] = i;
      i = c;
    }
    heap[i] = v;
    pos[v] = i;
  }
}
