import { startTestApp } from '../test/kit/app.js';
import { createUser } from '../test/kit/users.js';
import { heavyRequestsOffThread, pollHealth } from '../test/kit/heavy-requests.js';
import { percentile } from './lib.js';

/**
 * How fast GET /health answers while the heaviest requests a caller can send run beside it: a maximal term
 * validation (10,000 unknown values), a 60,000-row CSV import, a 200-alias query and the largest query the limits
 * allow. The baseline is /health on the same idle service in the same run; the goal is every answer within 200 ms.
 * The heavy requests come from a worker thread, the polls from the service's own thread, so that a stall of the
 * service's thread shows in the polls' latency and the client's work does not. The service has first served a
 * smaller set of the same kinds, with other query texts (so the measured ones are still parsed, validated and
 * planned): the figure is a running service's, not that of a process whose code the JIT has not compiled yet.
 */
export default async function responsivenessBench(): Promise<void> {
  const t = await startTestApp({ RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000', REQUEST_TIMEOUT_MS: '300000' }, { listen: true });
  try {
    const su = await createUser(t, { accountType: 'SUPERUSER' });
    await (await heavyRequestsOffThread(t, { superuserToken: su.accessToken, importRows: 2000, validateTerms: 1000, variant: 'warm' })).start();
    // From a thread of their own, their bodies (5 MB) built before anything is measured: the client's work is not the service's.
    const ready = await heavyRequestsOffThread(t, { superuserToken: su.accessToken });
    let idleDone: () => void = () => {};
    const idle = pollHealth(t.url, new Promise<void>((r) => (idleDone = r)));
    setTimeout(() => idleDone(), 3000);
    const baseline = (await idle).map((s) => s.ms).sort((a, b) => a - b);

    const heavy = ready.start();
    const loaded = await pollHealth(t.url, heavy);
    const outcomes = await heavy;
    const ms = loaded.map((s) => s.ms).sort((a, b) => a - b);
    const line = (name: string, xs: number[], statuses: string) =>
      `  ${name.padEnd(34)} ${String(xs.length).padStart(5)} answers   p50 ${percentile(xs, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(xs, 99).toFixed(1).padStart(7)} ms   max ${xs[xs.length - 1].toFixed(1).padStart(7)} ms   ${statuses}`;
    console.log(`workload: GET /health polled one at a time every 25 ms, ${t.app.stores.relational.kind} + ${t.app.stores.column.kind}; heavy requests started together:`);
    console.log(`  ${outcomes.map((o) => `${o.name} -> ${o.status} in ${(o.ms / 1000).toFixed(1)} s`).join('; ')}`);
    console.log(line('GET /health, idle (baseline)', baseline, ''));
    const over = loaded.filter((s) => s.ms > 200).length;
    const statuses = `${loaded.filter((s) => s.status === 200).length} x 200, ${loaded.filter((s) => s.status !== 200).length} other; ${over} over 200 ms`;
    console.log(line('GET /health, under the heavy requests', ms, statuses));
    console.log(`  p99 under load is x${(percentile(ms, 99) / percentile(baseline, 99)).toFixed(1)} the idle p99`);
    const slowest = [...loaded].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`  slowest answers (ms at s since the start): ${slowest.map((s) => `${s.ms.toFixed(0)} at ${(s.at / 1000).toFixed(1)}`).join(', ')}`);
    // Which round trip a late answer waited for: the components' own latencies, as the report gave them.
    for (const s of loaded.filter((x) => x.ms > 200 && x.body)) {
      const components = (s.body as { components: Record<string, { latency_ms?: number }> }).components;
      const parts = Object.entries(components).filter(([, c]) => c.latency_ms !== undefined).map(([name, c]) => `${name} ${c.latency_ms} ms`);
      console.log(`  the answer of ${s.ms.toFixed(0)} ms at ${(s.at / 1000).toFixed(1)} s: ${parts.join(', ')}`);
    }
  } finally {
    await t.close();
  }
}
