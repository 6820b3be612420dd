/**
 * Which waiting task of the worker pool starts next: per-owner round robin under two caps, the pool's size and
 * what one owner may run at once. The next task is the first waiting one of the owner served longest ago (an owner
 * not served while it had work counts as served never), so another owner's single small task waits for at most one
 * task of each other owner with work, never for all of one owner's queue. Pure bookkeeping (no threads, no timers):
 * the pool (pool.ts) starts what `take` hands out and calls `done` when it ends.
 */
export class FairQueue<T> {
  /** Each owner's waiting items, first come first. */
  private readonly waiting = new Map<string, T[]>();
  private readonly running = new Map<string, number>();
  /** When each owner with work last had an item started (a sequence number; forgotten once it has none). */
  private readonly served = new Map<string, number>();
  private sequence = 0;
  private active = 0;

  /**
   * @param capacity items that may run at once across all owners (the pool's threads)
   * @param perOwner items one owner may run at once; below `capacity`, so some room is always left to the others
   */
  constructor(
    readonly capacity: number,
    readonly perOwner: number,
  ) {
    if (!(capacity >= 1 && perOwner >= 1)) throw new Error('FairQueue: capacity and perOwner must be at least 1');
  }

  push(owner: string, item: T): void {
    const list = this.waiting.get(owner);
    if (list) list.push(item);
    else this.waiting.set(owner, [item]);
  }

  /** Takes a waiting item out (its caller gave up before it started); false when it is not waiting. */
  remove(owner: string, item: T): boolean {
    const list = this.waiting.get(owner);
    const i = list ? list.indexOf(item) : -1;
    if (i < 0) return false;
    list!.splice(i, 1);
    if (!list!.length) this.waiting.delete(owner);
    this.forgetIdle(owner);
    return true;
  }

  /** The items that may start now, in the order to start them; each counts as running until `done`. */
  take(): Array<{ owner: string; item: T }> {
    const started: Array<{ owner: string; item: T }> = [];
    while (this.active < this.capacity) {
      let next: string | undefined;
      let nextServed = Number.POSITIVE_INFINITY;
      for (const owner of this.waiting.keys()) {
        const served = this.served.get(owner) ?? 0;
        if ((this.running.get(owner) ?? 0) < this.perOwner && served < nextServed) {
          next = owner;
          nextServed = served;
        }
      }
      if (next === undefined) break;
      const list = this.waiting.get(next)!;
      const item = list.shift()!;
      if (!list.length) this.waiting.delete(next);
      this.served.set(next, ++this.sequence);
      this.running.set(next, (this.running.get(next) ?? 0) + 1);
      this.active++;
      started.push({ owner: next, item });
    }
    return started;
  }

  /** One of `owner`'s running items has ended. */
  done(owner: string): void {
    const n = this.running.get(owner) ?? 0;
    if (n <= 0) throw new Error(`FairQueue: ${owner} has nothing running`);
    if (n === 1) this.running.delete(owner);
    else this.running.set(owner, n - 1);
    this.active--;
    this.forgetIdle(owner);
  }

  private forgetIdle(owner: string): void {
    if (!this.waiting.has(owner) && !this.running.has(owner)) this.served.delete(owner);
  }

  /** Running and waiting items by owner (owners with neither are left out). */
  load(): Record<string, { running: number; waiting: number }> {
    const out: Record<string, { running: number; waiting: number }> = {};
    for (const [owner, n] of this.running) out[owner] = { running: n, waiting: 0 };
    for (const [owner, list] of this.waiting) out[owner] = { running: out[owner]?.running ?? 0, waiting: list.length };
    return out;
  }
}
