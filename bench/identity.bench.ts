import { Agent, request } from 'undici';
import { startTestApp } from '../test/kit/app.js';
import { createUser } from '../test/kit/users.js';
import { systemClock } from '../lib/clock.js';
import { createTokenVerifier } from '../subgraphs/identity/index.js';
import { measure, report } from './lib.js';

/**
 * Identity costs: login (argon2id verify, token signing, two inserts) and access-token verification, both over
 * HTTP against GET /health through the same server, plus the verifier alone in-process.
 */
export default async function identityBench(): Promise<void> {
  const t = await startTestApp({ RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000' }, { listen: true });
  const dispatcher = new Agent({ connections: 16 });
  const send = async (path: string, init: { method?: 'GET' | 'POST'; body?: string; token?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const r = await request(`${t.url}${path}`, { method: init.method ?? 'GET', body: init.body, headers, dispatcher });
    const text = await r.body.text();
    if (r.statusCode >= 400) throw new Error(`${path}: ${r.statusCode} ${text}`);
  };
  try {
    const user = await createUser(t);
    // One account per caller, taken in turn: the login throttle counts an attempt as a failure until its password
    // check ends, and locks an (email, address) pair with more than five in flight, as it would a guessing client.
    const accounts = [user, ...(await Promise.all(Array.from({ length: 7 }, () => createUser(t))))];
    const loginBodies = accounts.map((a) => JSON.stringify({ email: a.email, password: a.password }));
    let nextLogin = 0;
    const ping = JSON.stringify({ query: '{ identityPing { status } }' });
    const opts = { durationMs: 4000, concurrency: 8 };
    const baseline = await measure('GET /health (baseline)', () => send('/health'), opts);
    const rows = [
      await measure('POST /v1/user/auth/login (argon2id)', () => send('/v1/user/auth/login', { method: 'POST', body: loginBodies[nextLogin++ % loginBodies.length] }), { ...opts, warmup: 5 }),
      await measure('POST /graphql identityPing, no token', () => send('/graphql', { method: 'POST', body: ping }), opts),
      await measure('POST /graphql identityPing, verified token', () => send('/graphql', { method: 'POST', body: ping, token: user.accessToken }), opts),
    ];
    report(`workload: HTTP over loopback, keep-alive, ${opts.concurrency} concurrent callers, ${opts.durationMs / 1000} s each, embedded engines`, baseline, rows);

    const verifier = await createTokenVerifier({ config: t.config, stores: t.app.stores, clock: systemClock, log: t.app.http.log });
    const alone = await measure('verifyAccessToken in-process (Ed25519)', () => verifier.verifyAccessToken(user.accessToken), { durationMs: 2000, concurrency: 1, warmup: 200 });
    const healthAlone = await measure('GET /health (baseline, 1 caller)', () => send('/health'), { durationMs: 2000, concurrency: 1 });
    report('workload: one caller, 2 s; token verification without HTTP against one /health round trip', healthAlone, [alone]);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    const m = process.memoryUsage();
    console.log(`  memory after the run: rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)}`);
  } finally {
    await dispatcher.close();
    await t.close();
  }
}
