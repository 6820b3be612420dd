/** Latency samples -> throughput and percentiles. */
export interface Figures {
  name: string;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /**
   * Throughput as a share of the baseline's, when both were measured in interleaved rounds (`interleaved`): the
   * median of the rounds' ratios. Absent when the ratio is the plain quotient of the two throughputs.
   */
  ratio?: number;
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
  const samples: number[] = [];
  const { seconds } = await measureSamples(fn, opts, samples);
  return figuresOf(name, samples, seconds);
}

/** One measurement: warms up, then runs `fn` from `concurrency` callers for `durationMs`, adding each latency to `samples`. */
async function measureSamples(fn: () => Promise<unknown>, opts: { durationMs?: number; concurrency?: number; warmup?: number }, samples: number[]): Promise<{ requests: number; seconds: number }> {
  const durationMs = opts.durationMs ?? 3000;
  const concurrency = opts.concurrency ?? 8;
  for (let i = 0; i < (opts.warmup ?? 50); i++) await fn();
  const before = samples.length;
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
  return { requests: samples.length - before, seconds: (performance.now() - started) / 1000 };
}

function figuresOf(name: string, samples: number[], seconds: number): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, requests: sorted.length, seconds, rps: sorted.length / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/**
 * Measures a baseline and the rows against it in `rounds` interleaved rounds (baseline, then each row, in an order
 * that rotates every round), each step `roundMs` long. A ratio is taken within each round, between measurements a
 * few seconds apart, and the median of the rounds' ratios is reported: on a shared machine the speed of both sides
 * drifts by a factor of two or more over a minute, and a baseline measured once, before everything else, carries
 * that drift into every ratio. The figures of each row pool all its rounds' samples.
 */
export async function interleaved(
  baseline: { name: string; fn: () => Promise<unknown> },
  rows: { name: string; fn: () => Promise<unknown> }[],
  opts: { rounds?: number; roundMs?: number; concurrency?: number } = {},
): Promise<{ baseline: Figures; rows: Figures[] }> {
  const rounds = opts.rounds ?? 5;
  const step = { durationMs: opts.roundMs ?? 1000, concurrency: opts.concurrency ?? 8, warmup: 0 };
  const all = [baseline, ...rows];
  for (const r of all) for (let i = 0; i < 50; i++) await r.fn();
  const samples = all.map(() => [] as number[]);
  const seconds = all.map(() => 0);
  const ratios = rows.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const order = all.map((_, i) => (i + round) % all.length);
    const rps = new Array<number>(all.length);
    for (const i of order) {
      const f = await measureSamples(all[i].fn, step, samples[i]);
      seconds[i] += f.seconds;
      rps[i] = f.requests / f.seconds;
    }
    rows.forEach((_, j) => ratios[j].push(rps[j + 1] / rps[0]));
  }
  const figures = all.map((r, i) => figuresOf(r.name, samples[i], seconds[i]));
  return { baseline: figures[0], rows: figures.slice(1).map((f, j) => ({ ...f, ratio: median(ratios[j]) })) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The ratio of a row's throughput to the baseline's: the interleaved rounds' median when it was measured so. */
export function ratioOf(row: Figures, baseline: Figures): number {
  return row.ratio ?? row.rps / baseline.rps;
}

/** Prints a table of figures with each row's throughput ratio to the baseline row. */
export function report(workload: string, baseline: Figures, rows: Figures[]): void {
  console.log(workload);
  const line = (f: Figures) =>
    `  ${f.name.padEnd(44)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.toFixed(2).padStart(7)} ms   p99 ${f.p99.toFixed(2).padStart(7)} ms   ` +
    `x${ratioOf(f, baseline).toFixed(3)} of baseline throughput${f.ratio !== undefined ? ' (median of rounds)' : ''}`;
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
