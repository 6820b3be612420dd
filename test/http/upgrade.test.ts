import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../lib/package-root.js';
import { call, createTestEngines, startTestApp, type TestApp, type TestEngines } from '../kit/app.js';
import { startServiceProcess } from '../kit/processes.js';
import { createUser } from '../kit/users.js';
import { CONNECTOMES_DIR } from '../kit/datasets.js';

/**
 * The last release whose seed data lived in data/ (the default DATA_DIR) and whose Witvliet datasets were named
 * celegans_witvliet_2020_N: a data directory it wrote must keep working with the code of today.
 */
const PREVIOUS = 'a382032e9d4dc11bb59208330a8becca9c0e82d4';

function hasCommit(commit: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: PACKAGE_ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const history = hasCommit(PREVIOUS);
if (!history) console.warn(`upgrade test skipped: commit ${PREVIOUS} is not in this checkout's git history (a shallow clone or an archive)`);

const ACCOUNT = { email: 'upgrade@example.org', password: 'a passphrase kept across the upgrade', display_name: 'Upgrade Tester' };
const WITVLIET = Array.from({ length: 8 }, (_, i) => i + 1);

describe.skipIf(!history)('a data directory written by the previous release', () => {
  let oldTree: string;
  let engines: TestEngines;
  let t: TestApp;
  let apiToken: string;
  /** The dataset ids the previous release gave its Witvliet datasets, by their old slugs. */
  const oldIds = new Map<string, string>();

  beforeAll(async () => {
    oldTree = await mkdtemp(path.join(os.tmpdir(), 'neurodata-previous-'));
    execFileSync('sh', ['-c', `git archive ${PREVIOUS} | tar -x -C "${oldTree}"`], { cwd: PACKAGE_ROOT });
    await symlink(path.join(PACKAGE_ROOT, 'node_modules'), path.join(oldTree, 'node_modules'));
    // Empty engines (a fresh DATA_DIR; on the servers, new databases), which the previous release starts on first.
    engines = await createTestEngines({ seeded: false });
    const previous = await startServiceProcess(
      process.execPath,
      ['--import', 'tsx', 'main.ts'],
      { ...engines.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DATASETS: 'true', SEED_DIR: undefined },
      { cwd: oldTree, timeoutMs: 240_000 },
    );
    try {
      expect((await call(previous.url, 'GET', '/health')).body.status).toBe('healthy');
      expect((await call(previous.url, 'POST', '/v1/user/auth/register', { body: ACCOUNT })).status).toBe(201);
      const login = await call(previous.url, 'POST', '/v1/user/auth/login', { body: { email: ACCOUNT.email, password: ACCOUNT.password } });
      expect(login.status).toBe(200);
      const made = await call(previous.url, 'POST', '/v1/user/tokens', { token: login.body.access_token, body: { name: 'kept across the upgrade', scope: 'read' } });
      expect(made.status).toBe(201);
      apiToken = made.body.token;
      for (const n of WITVLIET) {
        const record = await call(previous.url, 'GET', `/v1/search/datasets/celegans_witvliet_2020_${n}`);
        expect(record.status).toBe(200);
        oldIds.set(`celegans_witvliet_2020_${n}`, record.body.dataset_id);
      }
    } finally {
      await previous.stop();
    }
    t = await startTestApp({ SEED_DATASETS: 'true' }, { engines });
  }, 480_000);

  afterAll(async () => {
    await t?.close();
    if (!t) await engines?.drop();
    if (oldTree) await rm(oldTree, { recursive: true, force: true });
  });

  it('keeps its accounts and their API tokens', async () => {
    const login = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: ACCOUNT.email, password: ACCOUNT.password } });
    expect(login.status).toBe(200);
    const profile = await call(t.url, 'GET', '/v1/user/profile', { token: apiToken });
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe(ACCOUNT.email);
  });

  it('has every shipped dataset exactly once, the Witvliet series renamed in place under its 2021 slugs', async () => {
    const folders = (await readdir(CONNECTOMES_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const all = await call(t.url, 'GET', '/v1/search/fulltext?limit=50');
    expect(all.status).toBe(200);
    expect(all.body.items.map((d: { slug: string }) => d.slug).sort()).toEqual([...folders, 'neuron_morphologies'].sort());
    for (const n of WITVLIET) {
      const record = await call(t.url, 'GET', `/v1/search/datasets/celegans_witvliet_2021_${n}`);
      expect(record.status).toBe(200);
      // The same dataset, not a second one: its id and its published version are those of the previous release.
      expect(record.body.dataset_id).toBe(oldIds.get(`celegans_witvliet_2020_${n}`));
      expect(record.body.version).toBe(1);
    }
  });

  it('finds the renamed datasets by search under their new slugs', async () => {
    const found = await call(t.url, 'GET', '/v1/search/fulltext?q=witvliet&limit=50');
    expect(found.status).toBe(200);
    expect(found.body.items.map((d: { slug: string }) => d.slug).sort()).toEqual(WITVLIET.map((n) => `celegans_witvliet_2021_${n}`));
  });

  it('still answers the old slugs: the API with the renamed dataset, the web page with a permanent redirect', async () => {
    const byOld = await call(t.url, 'GET', '/v1/search/datasets/celegans_witvliet_2020_3');
    expect(byOld.status).toBe(200);
    expect(byOld.body.slug).toBe('celegans_witvliet_2021_3');
    expect(byOld.body.dataset_id).toBe(oldIds.get('celegans_witvliet_2020_3'));
    const academic = await createUser(t, { accountType: 'ACADEMIC' });
    const dataset = await call(t.url, 'GET', '/v1/neurodata/datasets/celegans_witvliet_2020_3', { token: academic.accessToken });
    expect(dataset.status).toBe(200);
    expect(dataset.body.slug).toBe('celegans_witvliet_2021_3');
    // The page itself, without following the redirect as call() would.
    const page = await t.app.http.inject({ method: 'GET', url: '/datasets/celegans_witvliet_2020_3' });
    expect(page.statusCode).toBe(301);
    expect(page.headers.location).toBe('/datasets/celegans_witvliet_2021_3');
  });
});
