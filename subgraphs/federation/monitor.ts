import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import type { ClusterChecks } from './cluster-checks.service.js';
import type { ClusterStore } from './store/cluster.store.js';

/**
 * Pings every active cluster once per interval (FEDERATION_PING_INTERVAL_SEC). The pings are claimed in the
 * database, so several replicas sharing one do not ping a cluster several times; changes of health are logged and
 * kept in the cluster's history by the checks.
 */
export class ClusterMonitor {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly stop = new AbortController();

  constructor(
    private readonly store: ClusterStore,
    private readonly checks: ClusterChecks,
    private readonly opts: { intervalSec: number; timeoutMs: number },
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.opts.intervalSec <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.opts.intervalSec * 1000);
    this.timer.unref();
  }

  /** One round; a round still running when the next is due is not doubled. */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    try {
      const due = await this.store.claimDuePings(this.clock.now(), this.opts.intervalSec * 1000);
      await Promise.all(due.map((c) => this.checks.ping(c, { signal: this.stop.signal, timeoutMs: this.opts.timeoutMs, retries: 0 })));
    } catch (err) {
      if (!this.stop.signal.aborted) this.log.warn({ err }, 'federation monitoring round failed');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.stop.abort();
    await this.running;
  }
}
