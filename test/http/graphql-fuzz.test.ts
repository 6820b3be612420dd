import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser, type TestAccountType, type TestUser } from '../kit/users.js';
import { createDataset, createTinyDataset } from '../kit/datasets.js';
import { rng, seedOf, type FuzzPools } from '../kit/request-fuzzer.js';
import { generateOperation, rootFields } from '../kit/graphql-fuzzer.js';
import { testFuzzSettings } from '../../lib/config.js';

type Json = Record<string, any>;

const CALLERS: { name: string; accountType?: TestAccountType }[] = [
  { name: 'anonymous' },
  { name: 'Regular', accountType: 'REGULAR' },
  { name: 'Academic', accountType: 'ACADEMIC' },
  { name: 'SuperUser', accountType: 'SUPERUSER' },
];

/**
 * Generated operations on every root field of the API schema (test/kit/graphql-fuzzer.ts), beside the generated
 * REST requests of fuzz.test.ts: whatever the arguments, the answer is data or a refusal with its code, never a
 * 5xx nor INTERNAL_SERVER_ERROR.
 */
describe('generated GraphQL operations over the API schema', () => {
  const settings = testFuzzSettings();
  let t: TestApp;
  const callers = new Map<string, TestUser | undefined>();
  const pools: FuzzPools = {};

  beforeAll(async () => {
    t = await startTestApp({
      // Thousands of requests from one address: the rate limit is not what this test is about.
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_REFILL_PER_SEC: '1000000',
      FEDERATION_TIMEOUT_MS: '1000',
      FEDERATION_RETRIES: '0',
      FEDERATION_PING_INTERVAL_SEC: '0',
    });
    for (const c of CALLERS) callers.set(c.name, c.accountType ? await createUser(t, { accountType: c.accountType }) : undefined);
    const owner = callers.get('Academic')!;
    const other = await createUser(t, { accountType: 'ACADEMIC' });
    const open = await createTinyDataset(t, owner, { visibility: 'public' });
    const restricted = await createTinyDataset(t, other, { visibility: 'restricted' });
    const draft = await createDataset(t, owner, { visibility: 'restricted' });
    const syql = `MATCH (a:Neuron)-[c]->(b:Neuron) IN "${open.slug}" RETURN a.name, b.name, c.weight LIMIT 5`;
    const saved = await call(t.url, 'POST', '/v1/queries', { token: owner.accessToken, body: { name: 'fuzz fixture', query: syql } });
    const job = await call(t.url, 'POST', '/v1/jobs', { token: owner.accessToken, body: { query: syql } });
    const terms = await call(t.url, 'GET', '/v1/ontology/terms?limit=3');
    const ids = (r: { body: any }, key = 'id') => [r.body?.[key]].filter((x): x is string => typeof x === 'string');
    Object.assign(pools, {
      dataset: [open.id, open.slug, `${open.slug}@v1`, restricted.id, restricted.slug, draft.id, `${draft.slug}@draft`],
      version: ['v1', 'latest', 'draft', '1', ''],
      user: [other.id],
      term: (terms.body?.items ?? []).map((x: Json) => x.id),
      savedQuery: ids(saved),
      job: ids(job, 'job_id'),
      provider: ['orcid', 'github', 'x'],
    } satisfies FuzzPools);
  });
  afterAll(async () => t?.close());

  it(`answers no generated operation with a 5xx or INTERNAL_SERVER_ERROR (FUZZ_SEED=${settings.seed}, ${settings.requestsPerOperation} mixed and one per argument, per root field and account class)`, async () => {
    const fields = rootFields(t.app.composition.apiSchema);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const slowest: { ms: number; what: string }[] = [];
    for (const phase of ['query', 'mutation'] as const) {
      for (const caller of CALLERS) {
        // Logged in again for each phase: a generated logout or password change must not leave the caller anonymous.
        const user = callers.get(caller.name);
        const token = user ? (await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: user.email, password: user.password } })).body.access_token : undefined;
        for (const { kind, field } of fields.filter((f) => f.kind === phase)) {
          // Anything goes in the first requests; then each argument in turn gets a wrong or edge value while the
          // others fit, so that a refusal of one argument does not hide what another one does.
          const mixed = settings.requestsPerOperation;
          for (let i = 0; i < mixed + field.args.length; i++) {
            const seed = seedOf(settings.seed, 'graphql', field.name, caller.name, i);
            const op = generateOperation(rng(seed), kind, field, pools, i < mixed ? undefined : field.args[i - mixed]!.name);
            sent++;
            const what = `[${caller.name}, seed ${seed}] ${op.query.slice(0, 400)}${op.variables ? ` variables ${JSON.stringify(op.variables).slice(0, 300)}` : ''}`;
            let r: { status: number; body: any };
            const started = performance.now();
            try {
              r = await call(t.url, 'POST', '/graphql', { body: op, token });
              slowest.push({ ms: Math.round(performance.now() - started), what: `${caller.name} ${field.name} -> ${r.status}` });
              slowest.sort((a, b) => b.ms - a.ms).splice(8);
            } catch (e) {
              failures.push(`${what} -> ${(e as Error).message.slice(0, 300)}`);
              continue;
            }
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            const internal = (r.body?.errors ?? []).filter((e: Json) => !e.extensions?.code || e.extensions.code === 'INTERNAL_SERVER_ERROR');
            if (r.status >= 500 || internal.length) failures.push(`${what} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
          }
        }
      }
    }
    console.log(`graphql fuzz: ${sent} operations over ${fields.length} root fields; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    console.log(`graphql fuzz: slowest operations\n  ${slowest.map((x) => `${x.ms} ms ${x.what}`).join('\n  ')}`);
    expect(failures, `FUZZ_SEED=${settings.seed}: ${failures.length} of ${sent} generated operations answered a fault`).toEqual([]);
  }, 600_000);
});
