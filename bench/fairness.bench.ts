import { startTestApp } from '../test/kit/app.js';
import { createUser } from '../test/kit/users.js';
import { pollHealth } from '../test/kit/heavy-requests.js';
import { percentile } from './lib.js';

const DATASET = 'celegans_cook_2019_hermaphrodite';
/** About the heaviest pattern the planner's default estimate allows on this dataset (2.4e8 estimated matches). */
const HEAVIEST = `MATCH (a)--(b)--(c)--(d)--(e) IN "${DATASET}" RETURN count(*)`;
const SMALL = `MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "${DATASET}" WHERE a.name = 'AVAL' RETURN b.name, c.weight ORDER BY c.weight DESC LIMIT 10`;
const LOAD_MS = 20_000;

/**
 * SyQL fairness: one user keeps the heaviest query the limits allow running (as many at once as the per-user cap
 * lets them) for 20 s, while GET /health is polled every 25 ms and a second user sends a small anchored query every
 * 100 ms. The baselines are the same /health poll and small query on the idle service in the same run. Goals:
 * /health within its 2 s budget (HEALTH_TIMEOUT_MS) and 200 every time, the second user's query within 1 s.
 */
export default async function fairnessBench(): Promise<void> {
  const t = await startTestApp({ SEED_DATASETS: 'true', RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000' }, { listen: true });
  try {
    const [heavyUser, smallUser] = await Promise.all([createUser(t, { accountType: 'ACADEMIC' }), createUser(t, { accountType: 'ACADEMIC' })]);
    const exec = async (token: string, query: string) => {
      const started = performance.now();
      const res = await fetch(`${t.url}/v1/syql/exec`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query }) });
      await res.arrayBuffer();
      return { ms: performance.now() - started, status: res.status };
    };
    const smallLoop = async (until: { done: boolean }) => {
      const out: { ms: number; status: number }[] = [];
      while (!until.done) {
        out.push(await exec(smallUser.accessToken, SMALL));
        await new Promise((r) => setTimeout(r, 100));
      }
      return out;
    };

    const idle = { done: false };
    const idleSmall = smallLoop(idle);
    const idleHealth = pollHealth(t.url, new Promise<void>((r) => setTimeout(r, 3000)));
    const baseline = (await idleHealth).map((s) => s.ms).sort((a, b) => a - b);
    idle.done = true;
    const baselineSmall = (await idleSmall).map((s) => s.ms).sort((a, b) => a - b);

    const load = { done: false };
    const heavy: { ms: number; status: number }[] = [];
    const heavyLoop = async () => {
      while (!load.done) heavy.push(await exec(heavyUser.accessToken, HEAVIEST));
    };
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
    // One more loop than the per-user cap: the surplus is refused with 429, as it would be for a real user.
    const loops = Array.from({ length: t.config.syql.maxConcurrentPerUser + 1 }, heavyLoop);
    const stop = new Promise<void>((r) => setTimeout(r, LOAD_MS));
    const smallUnder = smallLoop(load);
    const health = await pollHealth(t.url, stop);
    load.done = true;
    await Promise.all(loops);
    const small = (await smallUnder).sort((a, b) => a.ms - b.ms);
    clearInterval(rssTimer);
    await new Promise((r) => setTimeout(r, 2000));
    const rssAfter = process.memoryUsage().rss;

    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
    const line = (name: string, xs: number[], statuses: string) =>
      `  ${name.padEnd(40)} ${String(xs.length).padStart(5)} answers   p50 ${percentile(xs, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(xs, 99).toFixed(1).padStart(7)} ms   max ${(xs[xs.length - 1] ?? 0).toFixed(1).padStart(7)} ms   ${statuses}`;
    const count = (xs: { status: number }[]) => {
      const by = new Map<number, number>();
      for (const x of xs) by.set(x.status, (by.get(x.status) ?? 0) + 1);
      return [...by].map(([s, n]) => `${n} x ${s}`).join(', ');
    };
    const ms = health.map((s) => s.ms).sort((a, b) => a - b);
    console.log(`workload: ${t.app.stores.relational.kind} + ${t.app.stores.column.kind}; for ${LOAD_MS / 1000} s one user runs ${loops.length} loops of`);
    console.log(`  ${HEAVIEST}`);
    const completed = heavy.filter((h) => h.status === 200).map((h) => (h.ms / 1000).toFixed(1));
    console.log(`  (${count(heavy)}${completed.length ? `; the 200s took ${completed.join(', ')} s` : '; none completed'})`);
    console.log(`  while GET /health is polled every 25 ms and a second user sends a small anchored query every 100 ms`);
    console.log(line('GET /health, idle (baseline)', baseline, ''));
    console.log(line('GET /health, under the heaviest query', ms, `${count(health)}; ${health.filter((s) => s.ms > 2000).length} over 2 s`));
    console.log(line('small query of user 2, idle (baseline)', baselineSmall, ''));
    console.log(line('small query of user 2, under load', small.map((s) => s.ms), `${count(small)}; ${small.filter((s) => s.ms > 1000).length} over 1 s`));
    console.log(`  process RSS: ${mib(rssBefore)} before, ${mib(rssPeak)} at the peak, ${mib(rssAfter)} 2 s after the load`);
  } finally {
    await t.close();
  }
}
