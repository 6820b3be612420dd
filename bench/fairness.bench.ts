import { startTestApp } from '../test/kit/app.js';
import { createUser } from '../test/kit/users.js';
import { pollHealth } from '../test/kit/heavy-requests.js';
import { goal, percentile } from './lib.js';

const DATASET = 'celegans_cook_2019_hermaphrodite';
/** About the heaviest pattern the planner's default estimate allows on this dataset (2.4e8 estimated matches). */
const HEAVIEST = `MATCH (a)--(b)--(c)--(d)--(e) IN "${DATASET}" RETURN count(*)`;
const SMALL = `MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "${DATASET}" WHERE a.name = 'AVAL' RETURN b.name, c.weight ORDER BY c.weight DESC LIMIT 10`;
const LOAD_MS = 20_000;

/** The heaviest SyQL job the planner lets through on this dataset: 196,539 rows sorted, then written as Arrow. */
const HEAVIEST_JOB = `MATCH (a)--(b)--(c)--(d)--(e) IN "${DATASET}"@latest RETURN DISTINCT a.name, e.name ORDER BY a.name`;
/** Tens of millions of rows, written as they come: the longest export. */
const LONG_EXPORT = `MATCH (a)-[:Synapse*1..3]->(b)-[:Synapse*1..3]->(c) IN "celegans_cook_2019_male" RETURN a.id, b.id, c.id`;
const TRIVIAL_JOB = `MATCH (a:Neuron) IN "celegans_varshney_2011" RETURN count(*) AS n`;
const JOBS_LOAD_MS = 45_000;
const IDLE_MS = 8_000;
/** Budgets of another user's requests and trivial job while one user runs the heaviest work. */
const REQUEST_BUDGET_MS = 2_000;
const JOB_BUDGET_MS = 30_000;

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
    await jobsAndAnalyses(t, heavyUser.accessToken, smallUser.accessToken);
  } finally {
    await t.close();
  }
}

type TestApp = Awaited<ReturnType<typeof startTestApp>>;
interface Sample {
  ms: number;
  status: number;
}

/**
 * The second part: for JOBS_LOAD_MS one user runs the heaviest SyQL job the planner allows, the longest export
 * (more such jobs queued behind them, up to what the per-user caps let them queue), and loops a motif census with a
 * 1000-sample null model and a full analysis (each submitted as a graph job when the route says to run it as one).
 * Once the first job writes its export, a second user sends a small SyQL query, an analytics call and a graph's
 * metrics (each in a loop of its own, 200 ms apart), and submits a trivial job and waits for it, again and again. The baselines are the same requests and job on the
 * idle service, in the same run; each row prints its ratio to its baseline. Goals: every answer of the second user
 * within 2 s, every trivial job done within 30 s of its submission.
 */
async function jobsAndAnalyses(t: TestApp, heavyToken: string, lightToken: string): Promise<void> {
  const send = async (token: string, method: string, path: string, body?: unknown): Promise<Sample & { body: any }> => {
    const started = performance.now();
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { ms: performance.now() - started, status: res.status, body: parsed };
  };
  const probes: { name: string; run: () => Promise<Sample> }[] = [
    { name: 'small SyQL query (POST /v1/syql/exec)', run: () => send(lightToken, 'POST', '/v1/syql/exec', { query: SMALL }) },
    {
      name: 'analytics (GET /v1/analytics/zscore-comparison)',
      run: () => send(lightToken, 'GET', `/v1/analytics/zscore-comparison?dataset_id=celegans_cook_2019_male&reference=celegans_varshney_2011,${DATASET}`),
    },
    { name: 'graph metrics (GET /v1/graph/…varshney…/metrics)', run: () => send(lightToken, 'GET', '/v1/graph/celegans_varshney_2011/metrics') },
  ];
  /** Submit to succeeded, polled every 100 ms. */
  const trivialJob = async (): Promise<Sample> => {
    const started = performance.now();
    const submitted = await send(lightToken, 'POST', '/v1/jobs', { query: TRIVIAL_JOB });
    if (submitted.status !== 202) return { ms: performance.now() - started, status: submitted.status };
    for (;;) {
      const job = await send(lightToken, 'GET', `/v1/jobs/${submitted.body.job_id}`);
      if (['succeeded', 'failed', 'cancelled'].includes(job.body?.status)) return { ms: performance.now() - started, status: job.body.status === 'succeeded' ? 200 : 500 };
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const measureFor = async (ms: number) => {
    const until = performance.now() + ms;
    const requests = probes.map(() => [] as Sample[]);
    const jobs: Sample[] = [];
    // A loop per kind of request, so that one slow kind does not hide how the others fare.
    const requestLoops = probes.map(async (p, i) => {
      while (performance.now() < until) {
        requests[i].push(await p.run());
        await new Promise((r) => setTimeout(r, 200));
      }
    });
    // At least two jobs, however long the first takes.
    const jobLoop = (async () => {
      while (performance.now() < until || jobs.length < 2) jobs.push(await trivialJob());
    })();
    await Promise.all([...requestLoops, jobLoop]);
    return { requests, jobs };
  };

  for (const p of probes) await p.run(); // warm: the graph is built, the plans cached
  await trivialJob();
  const idle = await measureFor(IDLE_MS);

  // The heavy user's work: jobs first (the per-user cap lets one run; the rest queue behind it), then the loops.
  const heavyJobs: string[] = [];
  for (const query of [LONG_EXPORT, HEAVIEST_JOB, LONG_EXPORT, HEAVIEST_JOB]) {
    const r = await send(heavyToken, 'POST', '/v1/jobs', { query });
    if (r.status === 202) heavyJobs.push(r.body.job_id);
    else console.log(`  the heavy job was refused: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  const load = { done: false };
  const analyses: Record<string, Sample[]> = { motifs: [], 'full-analysis': [] };
  const graphLoop = (name: 'motifs' | 'full-analysis') => async () => {
    while (!load.done) {
      const r = await send(heavyToken, 'POST', `/v1/graph/${DATASET}/${name}`, { null_model: { samples: 1000 } });
      analyses[name].push(r);
      if (r.body?.status === 'run_as_job' && r.body.job) {
        const job = await send(heavyToken, 'POST', '/v1/jobs/graph', r.body.job.body ?? r.body.job);
        if (job.status === 202) heavyJobs.push(job.body.job_id);
      }
    }
  };
  const loops = [graphLoop('motifs'), graphLoop('full-analysis')].map((f) => f());
  // Measured once the first job is writing its export (it plans and counts first), or after a minute at most.
  const writingBy = performance.now() + 60_000;
  while (performance.now() < writingBy) {
    const first = (await send(heavyToken, 'GET', `/v1/jobs/${heavyJobs[0]}`)).body;
    if (first?.status !== 'queued' && first?.status !== 'running') break;
    if (/ rows written$/.test(String(first.progress_message ?? ''))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const loaded = await measureFor(JOBS_LOAD_MS);
  const states = await Promise.all(heavyJobs.map(async (id) => (await send(heavyToken, 'GET', `/v1/jobs/${id}`)).body));
  load.done = true;
  await Promise.all(loops);
  for (const id of heavyJobs) await send(heavyToken, 'DELETE', `/v1/jobs/${id}`);

  const sorted = (xs: Sample[]) => xs.map((x) => x.ms).sort((a, b) => a - b);
  const statuses = (xs: Sample[]) => {
    const by = new Map<number, number>();
    for (const x of xs) by.set(x.status, (by.get(x.status) ?? 0) + 1);
    return [...by].map(([st, n]) => `${n} x ${st}`).join(', ');
  };
  const row = (name: string, base: Sample[], under: Sample[], unit: 'ms' | 's') => {
    const b = sorted(base);
    const u = sorted(under);
    const show = (v: number) => (unit === 's' ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(0)} ms`);
    const ratio = percentile(u, 50) / Math.max(percentile(b, 50), 0.001);
    console.log(
      `  ${name.padEnd(50)} idle p50 ${show(percentile(b, 50)).padStart(8)}   loaded ${String(u.length).padStart(3)} x p50 ${show(percentile(u, 50)).padStart(8)} p99 ${show(percentile(u, 99)).padStart(8)} max ${show(u.at(-1) ?? 0).padStart(8)}   x${ratio.toFixed(2)} of idle p50   ${statuses(under)}`,
    );
    return u.at(-1) ?? 0;
  };
  console.log(`workload: ${t.app.stores.relational.kind} + ${t.app.stores.column.kind}; JOBS_CONCURRENCY ${t.config.jobs.concurrency}, JOBS_PER_USER ${t.config.jobs.perUser}; for ${JOBS_LOAD_MS / 1000} s one user runs`);
  console.log(`  SyQL jobs (two of each, queued at once): ${LONG_EXPORT}`);
  console.log(`                                           ${HEAVIEST_JOB}`);
  console.log(`  and loops POST /v1/graph/${DATASET}/motifs and /full-analysis with a 1000-sample null model (run as graph jobs when they answer run_as_job)`);
  console.log(`  (motifs: ${statuses(analyses.motifs)}; full-analysis: ${statuses(analyses['full-analysis'])}; ${heavyJobs.length} heavy jobs submitted)`);
  const byState = new Map<string, number>();
  for (const j of states) byState.set(j?.status, (byState.get(j?.status) ?? 0) + 1);
  const writing = states.filter((j) => j?.status === 'running').map((j) => `${j.progress_message}`);
  console.log(`  the heavy user's jobs when the measurement ended: ${[...byState].map(([st, n]) => `${n} ${st}`).join(', ')}${writing.length ? ` (running: ${writing.join('; ')})` : ''}`);
  console.log(`  while a second user sends each request below in a loop of its own, 200 ms apart, and submits a trivial job (${TRIVIAL_JOB}) and waits for it, again and again`);
  const maxima = probes.map((p, i) => row(p.name, idle.requests[i], loaded.requests[i], 'ms'));
  const jobMax = row('trivial job, submitted to succeeded', idle.jobs, loaded.jobs, 's');
  for (const [i, p] of probes.entries()) goal(`${p.name}, slowest answer under load`, maxima[i], REQUEST_BUDGET_MS, { atLeast: false, unit: ' ms', digits: 0 });
  goal('trivial job, slowest under load', jobMax / 1000, JOB_BUDGET_MS / 1000, { atLeast: false, unit: ' s', digits: 1 });
  const failed = [...loaded.requests.flat(), ...loaded.jobs].filter((x) => x.status !== 200).length;
  console.log(`  answers of the second user under load that were not 200: ${failed}`);
}
