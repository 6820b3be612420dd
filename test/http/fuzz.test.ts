import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser, type TestAccountType, type TestUser } from '../kit/users.js';
import { createDataset, createTinyDataset, uploadFile } from '../kit/datasets.js';
import { FLAVOURS, describeRequest, generateRequest, rng, seedOf, sendRaw, type FuzzPools } from '../kit/request-fuzzer.js';
import { testFuzzSettings } from '../../lib/config.js';

type Json = Record<string, any>;

const CALLERS: { name: string; accountType?: TestAccountType }[] = [
  { name: 'anonymous' },
  { name: 'Regular', accountType: 'REGULAR' },
  { name: 'Academic', accountType: 'ACADEMIC' },
  { name: 'SuperUser', accountType: 'SUPERUSER' },
];

/** Reads first, then writes, then deletions: a deletion cannot leave the reads without their fixtures. */
const PHASES = [['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']];

describe('generated requests from /openapi.json', () => {
  const settings = testFuzzSettings();
  let t: TestApp;
  let doc: Json;
  const callers = new Map<string, TestUser | undefined>();
  const pools: FuzzPools = {};

  beforeAll(async () => {
    t = await startTestApp({
      // Thousands of requests from one address: the rate limit is not what this test is about.
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_REFILL_PER_SEC: '1000000',
      // Nothing leaves the machine in tests; a cluster URL that resolves should fail fast, not after retries.
      FEDERATION_TIMEOUT_MS: '1000',
      FEDERATION_RETRIES: '0',
      FEDERATION_PING_INTERVAL_SEC: '0',
    }, { listen: true });
    for (const c of CALLERS) callers.set(c.name, c.accountType ? await createUser(t, { accountType: c.accountType }) : undefined);
    const owner = callers.get('Academic')!;
    // Records the generated requests can find: the callers' own, and another Academic's that they may not change.
    const other = await createUser(t, { accountType: 'ACADEMIC' });
    const open = await createTinyDataset(t, owner, { visibility: 'public' });
    const restricted = await createTinyDataset(t, other, { visibility: 'restricted' });
    const morphology = await createTinyDataset(t, owner, { visibility: 'public' }, { publish: false });
    expect((await uploadFile(t, owner, morphology.id, 'cell.swc', '1 1 0 0 0 1 -1\n2 3 0 5 0 0.5 1\n3 3 0 9 0 0.5 2\n', 'text/plain')).status).toBe(201);
    expect((await call(t.url, 'POST', `/v1/neurodata/datasets/${morphology.id}/publish`, { token: owner.accessToken })).status).toBe(201);
    const draft = await createDataset(t, owner, { visibility: 'restricted' });
    const request = await call(t.url, 'POST', `/v1/neurodata/datasets/${restricted.id}/access/request`, { token: owner.accessToken, body: { message: 'for a test' } });
    const assets = await call(t.url, 'GET', `/v1/neurodata/datasets/${open.id}/assets`, { token: owner.accessToken });
    const syql = `MATCH (a:Neuron)-[c]->(b:Neuron) IN "${open.slug}" RETURN a.name, b.name, c.weight LIMIT 5`;
    const saved = await call(t.url, 'POST', '/v1/queries', { token: owner.accessToken, body: { name: 'fuzz fixture', query: syql } });
    const job = await call(t.url, 'POST', '/v1/jobs', { token: owner.accessToken, body: { query: syql } });
    const collection = await call(t.url, 'POST', '/v1/neurodata/collections', { token: owner.accessToken, body: { title: 'fuzz fixture', dataset_ids: [open.id] } });
    const terms = await call(t.url, 'GET', '/v1/ontology/terms?limit=5');
    const vocabularies = await call(t.url, 'GET', '/v1/ontology/vocabularies');
    const ids = (r: { body: any }, key = 'id') => [r.body?.[key]].filter((x): x is string => typeof x === 'string');
    Object.assign(pools, {
      dataset: [open.id, open.slug, `${open.slug}@v1`, restricted.id, restricted.slug, morphology.id, `${morphology.slug}@latest`, draft.id, `${draft.slug}@draft`],
      version: ['v1', 'latest', 'draft', '1'],
      asset: (assets.body?.items ?? assets.body?.assets ?? []).map((a: Json) => a.id).filter(Boolean),
      user: [other.id, callers.get('Regular')!.id],
      term: [...(terms.body?.items ?? []).map((x: Json) => x.id), ...(terms.body?.items ?? []).map((x: Json) => x.code), ...ids(saved)],
      savedQuery: ids(saved),
      job: ids(job, 'job_id').concat(ids(job)),
      collection: ids(collection),
      accessRequest: ids(request),
      provider: ['orcid', 'github', 'gitlab', 'google', 'x'],
      vocabulary: (Array.isArray(vocabularies.body) ? vocabularies.body : (vocabularies.body?.items ?? [])).map((v: Json) => v.name ?? v.vocabulary ?? v).filter((v: unknown) => typeof v === 'string'),
    } satisfies FuzzPools);
    doc = (await call(t.url, 'GET', '/openapi.json')).body;
  });
  afterAll(async () => t?.close());

  it(`answers no generated request with a 5xx (FUZZ_SEED=${settings.seed}, ${settings.requestsPerOperation} per operation and account class)`, async () => {
    console.log(`fuzz: FUZZ_SEED=${settings.seed} FUZZ_REQUESTS_PER_OPERATION=${settings.requestsPerOperation}; pools ${JSON.stringify(Object.fromEntries(Object.entries(pools).map(([k, v]) => [k, v.length])))}`);
    const operations = Object.entries<Json>(doc.paths).flatMap(([path, ops]) => Object.entries<Json>(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const slowest: { ms: number; what: string }[] = [];
    for (const methods of PHASES) {
      for (const caller of CALLERS) {
        // Logged in again for each phase: a generated logout or password change must not leave the caller anonymous.
        const user = callers.get(caller.name);
        const token = user ? (await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: user.email, password: user.password } })).body.access_token : undefined;
        for (const { path, method, op } of operations.filter((o) => methods.includes(o.method))) {
          for (let i = 0; i < settings.requestsPerOperation; i++) {
            const seed = seedOf(settings.seed, method, path, caller.name, i);
            // The first request of each caller mixes every kind of hostility; the others take one kind each, in turn
            // over the callers, so each operation meets each kind from a caller allowed to run it.
            const flavour = i === 0 ? null : FLAVOURS[(i - 1 + CALLERS.indexOf(caller)) % FLAVOURS.length];
            const req = generateRequest({ doc, r: rng(seed), pools, flavour }, method, path, op);
            if (token) req.headers.authorization = `Bearer ${token}`;
            sent++;
            let status: number;
            let text: string;
            const started = performance.now();
            try {
              ({ status, text } = await sendRaw(t.url, req, 70_000));
              slowest.push({ ms: Math.round(performance.now() - started), what: `${caller.name} ${describeRequest(req).slice(0, 160)} -> ${status}` });
              slowest.sort((a, b) => b.ms - a.ms).splice(8);
            } catch (e) {
              failures.push(`[${caller.name}, request seed ${seed}] ${describeRequest(req)} -> no answer: ${(e as Error).message}`);
              continue;
            }
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status < 500) continue;
            const line = `[${caller.name}, request seed ${seed}] ${describeRequest(req)} -> ${status} ${text.slice(0, 200)}`.replace(/\n/g, ' ');
            failures.push(line);
          }
        }
      }
    }
    console.log(`fuzz: ${sent} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    console.log(`fuzz: slowest requests\n  ${slowest.map((s) => `${s.ms} ms ${s.what}`).join('\n  ')}`);
    expect(failures, `FUZZ_SEED=${settings.seed}: ${failures.length} of ${sent} generated requests answered 5xx`).toEqual([]);
  }, 600_000);
});
