/**
 * When to hand the memory that finished statements freed back to the system. chDB runs inside this process, and its
 * allocator keeps what a statement used for reuse by the connection that ran it: after eight statements refused at
 * a 1 GiB limit the process stayed at 4 GB for good (docs/benchmarks.md, "Memory after refused queries").
 * `SYSTEM JEMALLOC PURGE` returns it, but only when run on that same connection (measured on chDB 3.4: from another
 * connection it releases nothing) and once the statement's threads have let go of it, a little after its answer;
 * the store (column.ts) purges such connections shortly after, when idle, and before closing one. A purge costs a
 * fraction of a millisecond with nothing to return and a few with a gigabyte; it is asked for only while the
 * process holds `thresholdBytes` more than the least it has held after a statement.
 */
export class FreedMemory {
  private least: number;

  constructor(
    private readonly thresholdBytes: number,
    private readonly rss: () => number = process.memoryUsage.rss,
  ) {
    this.least = this.rss();
  }

  /** Called when a statement has ended (answered or failed): whether its connection should purge now. */
  shouldPurge(): boolean {
    const now = this.rss();
    this.least = Math.min(this.least, now);
    return now >= this.least + this.thresholdBytes;
  }
}
