/** Latency samples -> throughput and percentiles. */
export interface Figures {
  name: string;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * Runs `fn` with `concurrency` callers for `durationMs` (after a short warm-up) and reports throughput and
 * latency percentiles in milliseconds.
 */
export async function measure(name: string, fn: () => Promise<unknown>, opts: { durationMs?: number; concurrency?: number; warmup?: number } = {}): Promise<Figures> {
  const durationMs = opts.durationMs ?? 3000;
  const concurrency = opts.concurrency ?? 8;
  for (let i = 0; i < (opts.warmup ?? 50); i++) await fn();
  const samples: number[] = [];
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await fn();
        samples.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  return { name, requests: samples.length, seconds, rps: samples.length / seconds, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** Prints a table of figures with each row's throughput ratio to the baseline row. */
export function report(workload: string, baseline: Figures, rows: Figures[]): void {
  console.log(workload);
  const line = (f: Figures) =>
    `  ${f.name.padEnd(44)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.toFixed(2).padStart(7)} ms   p99 ${f.p99.toFixed(2).padStart(7)} ms   ` +
    `x${(f.rps / baseline.rps).toFixed(3)} of baseline throughput`;
  console.log(line(baseline).replace(/x1\.000 of baseline throughput$/, '(baseline)'));
  for (const f of rows) console.log(line(f));
}

/**
 * Prints one goal line: the figure, the goal, and PASS or how far short of it the figure is. `atLeast` goals are
 * met by figures at or above the target (ratios), the others by figures below it (milliseconds).
 */
export function goal(name: string, figure: number, target: number, opts: { atLeast: boolean; unit: string; digits?: number }): boolean {
  const met = opts.atLeast ? figure >= target : figure < target;
  const show = (v: number) => `${v.toFixed(opts.digits ?? 3)}${opts.unit}`;
  const verdict = met ? 'PASS' : `short of goal (${opts.atLeast ? `${((figure / target) * 100).toFixed(0)}% of it` : `${show(figure - target)} over`})`;
  console.log(`  GOAL ${name}: ${show(figure)} (goal ${opts.atLeast ? '>=' : '<'} ${show(target)}): ${verdict}`);
  return met;
}

/** A bare Fastify route in this process: the baseline the platform goals are ratios of. */
export async function bareFastify(): Promise<{ url: string; close(): Promise<void> }> {
  const { default: Fastify } = await import('fastify');
  const bare = Fastify();
  bare.get('/ok', async () => ({ ok: true }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/ok`, close: () => bare.close() };
}

export { seededRandom } from '../lib/seeded-random.js';
