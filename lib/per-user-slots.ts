import { RateLimited } from './errors.js';

/**
 * At most `max` pieces of heavy work of one user at once in this process (whole-table Arrow reads, scans of synapse
 * tables): a further one is refused at once with 429 and `Retry-After: 1`, rather than queued, so that one user's
 * burst never stands in front of other users' reads. `refusal(running)` words the answer, naming the setting.
 */
export class PerUserSlots {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly refusal: (running: number) => string,
  ) {}

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const mine = this.running.get(userId) ?? 0;
    if (mine >= this.max) throw new RateLimited(this.refusal(mine), 1);
    this.running.set(userId, mine + 1);
    try {
      return await work();
    } finally {
      const left = (this.running.get(userId) ?? 1) - 1;
      if (left > 0) this.running.set(userId, left);
      else this.running.delete(userId);
    }
  }

  /** Work running now, by user (for tests and diagnostics). */
  load(): ReadonlyMap<string, number> {
    return this.running;
  }
}
