import { startTestApp, call, type TestApp } from './app.js';
import { createUser, type TestAccountType, type TestUser } from './users.js';
import { createDataset, createTinyDataset, uploadFile } from './datasets.js';
import type { FuzzPools } from './request-fuzzer.js';

type Json = Record<string, any>;

/** The account classes generated requests are sent as, each in turn. */
export const FUZZ_CALLERS: { name: string; accountType?: TestAccountType }[] = [
  { name: 'anonymous' },
  { name: 'Regular', accountType: 'REGULAR' },
  { name: 'Academic', accountType: 'ACADEMIC' },
  { name: 'SuperUser', accountType: 'SUPERUSER' },
];

export interface FuzzFixture {
  t: TestApp;
  /** The logged-in account of each of FUZZ_CALLERS by name; undefined for the anonymous caller. */
  callers: Map<string, TestUser | undefined>;
  /** Ids the generated requests draw from: the callers' own records, and another Academic's they may not change. */
  pools: FuzzPools;
  /** The access token of `name` from a fresh login (a generated logout or password change may have ended the last). */
  login(name: string): Promise<string | undefined>;
}

/**
 * A service for generated requests (the REST and the GraphQL fuzz tests): rate limits out of the way, federation
 * calls failing fast, one account per class, and the records the requests can find by id.
 */
export async function startFuzzApp(options: { listen?: boolean } = {}): Promise<FuzzFixture> {
  const t = await startTestApp(
    {
      // Thousands of requests from one address: the rate limit is not what these tests are about.
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_REFILL_PER_SEC: '1000000',
      // Nothing leaves the machine in tests; a cluster URL that resolves should fail fast, not after retries.
      FEDERATION_TIMEOUT_MS: '1000',
      FEDERATION_RETRIES: '0',
      FEDERATION_PING_INTERVAL_SEC: '0',
    },
    { listen: options.listen },
  );
  const callers = new Map<string, TestUser | undefined>();
  for (const c of FUZZ_CALLERS) callers.set(c.name, c.accountType ? await createUser(t, { accountType: c.accountType }) : undefined);
  const owner = callers.get('Academic')!;
  const other = await createUser(t, { accountType: 'ACADEMIC' });
  const open = await createTinyDataset(t, owner, { visibility: 'public' });
  const restricted = await createTinyDataset(t, other, { visibility: 'restricted' });
  const morphology = await createTinyDataset(t, owner, { visibility: 'public' }, { publish: false });
  if ((await uploadFile(t, owner, morphology.id, 'cell.swc', '1 1 0 0 0 1 -1\n2 3 0 5 0 0.5 1\n3 3 0 9 0 0.5 2\n', 'text/plain')).status !== 201) throw new Error('fuzz fixture: the SWC upload failed');
  if ((await call(t.url, 'POST', `/v1/neurodata/datasets/${morphology.id}/publish`, { token: owner.accessToken })).status !== 201) throw new Error('fuzz fixture: the publish failed');
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
  const pools: FuzzPools = {
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
  };
  const login = async (name: string) => {
    const user = callers.get(name);
    return user ? (await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: user.email, password: user.password } })).body.access_token : undefined;
  };
  return { t, callers, pools, login };
}
