import { startTestApp, call } from '../test/kit/app.js';
import { createUser } from '../test/kit/users.js';

const DATASET = 'celegans_cook_2019_male';
/** Within the planner's estimate, and a hash set of billions of name tuples: each statement reaches its 1 GiB limit. */
const HEAVY = `MATCH (a)--(b)--(c)--(d)--(e) IN "${DATASET}" RETURN DISTINCT a.name, b.name, c.name, d.name, e.name`;
const QUERIES = 8;
const MiB = 1024 * 1024;

/**
 * Memory after refused queries: eight users each send one query that the column store stops at its memory limit
 * (SYQL_MAX_MEMORY_MB, 1 GiB), all at once. The process's resident memory is sampled every 50 ms: before, at the
 * peak, when the last answer arrives and for 90 s after (a statement stopped by the request deadline may still be ending). On chDB the engine is in this process, so this is the
 * engine's memory too; on a server only the service's own.
 */
export default async function memoryBench(): Promise<void> {
  // Time limits past what eight such statements take on two cores, so that the memory limit is what stops them.
  const t = await startTestApp({ SEED_DATASETS: 'true', RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000', SYQL_MAX_EXECUTION_SECONDS: '120', REQUEST_TIMEOUT_MS: '180000' });
  try {
    const users = await Promise.all(Array.from({ length: QUERIES }, () => createUser(t, { accountType: 'ACADEMIC' })));
    await call(t.url, 'POST', '/v1/syql/exec', { token: users[0].accessToken, body: { query: `MATCH (a:Neuron) IN "${DATASET}" WHERE a.name = 'AVAL' RETURN a.name` } });
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
    const started = performance.now();
    const answers = await Promise.all(users.map((u) => call(t.url, 'POST', '/v1/syql/exec', { token: u.accessToken, body: { query: HEAVY } })));
    const seconds = (performance.now() - started) / 1000;
    const atAnswer = process.memoryUsage.rss();
    const after: number[] = [];
    for (let i = 0; i < 18; i++) {
      await new Promise((r) => setTimeout(r, 5000));
      after.push(process.memoryUsage.rss());
    }
    clearInterval(sampler);
    const statuses = answers.map((a) => `${a.status}${a.status === 400 && /SYQL_MAX_MEMORY_MB/.test(String(a.body.error)) ? ' memory' : ''}`);
    console.log(`engine: ${t.config.column.kind}; answers in ${seconds.toFixed(0)} s: ${statuses.join(', ')}`);
    console.log('| resident memory | MiB |\n|---|---|');
    console.log(`| before | ${Math.round(before / MiB)} |\n| peak | ${Math.round(peak / MiB)} |\n| at the last answer | ${Math.round(atAnswer / MiB)} |`);
    after.forEach((m, i) => console.log(`| ${(i + 1) * 5} s after | ${Math.round(m / MiB)} |`));
  } finally {
    await t.close();
  }
}
