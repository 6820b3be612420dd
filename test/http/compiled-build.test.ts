import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { build, staleBuildReason } from '../../scripts/build.js';
import { call, createTestEngines, type TestEngines } from '../kit/app.js';
import { startServiceProcess, type ServiceProcess } from '../kit/processes.js';
import { syntheticTermCsv } from '../kit/heavy-requests.js';
import { paserkSecret } from '../kit/keys.js';

const SUPERUSER = { email: 'compiled-build@example.org', password: 'a long enough passphrase' };

// What production runs: `node dist/main.js` with NODE_ENV=production, no tsx anywhere, on the engines of this run
// (embedded, or the servers).
describe('the compiled build (node dist/main.js)', () => {
  let engines: TestEngines;
  let service: ServiceProcess;

  beforeAll(async () => {
    // The build under test must be the one of these sources. CI builds before the suite, so this only rebuilds
    // after a local edit, which is what a developer running this file wants anyway (about 10 s).
    const stale = await staleBuildReason();
    if (stale) {
      console.log(`${stale}: building it (npm run build)`);
      await build();
    }
    // An empty database: the compiled build's own first start migrates it and imports the shipped vocabularies.
    engines = await createTestEngines({ seeded: false });
    service = await startServiceProcess(process.execPath, ['dist/main.js'], {
      ...engines.env,
      NODE_ENV: 'production',
      TOKEN_SECRET_KEY: paserkSecret(),
      API_DOMAIN: 'https://neurodata.example.org',
      API_DOCS: 'true',
      LOG_LEVEL: 'warn',
      SUPERUSER_EMAIL: SUPERUSER.email,
      SUPERUSER_PASSWORD: SUPERUSER.password,
    });
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    await engines?.drop();
  });

  it('becomes healthy on a fresh data directory and serves the seeded vocabularies over REST', async () => {
    const health = await call(service.url, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('healthy');
    const vocabularies = await call(service.url, 'GET', '/v1/ontology/vocabularies');
    expect(vocabularies.status).toBe(200);
    expect(vocabularies.body.map((v: { name: string }) => v.name)).toEqual(expect.arrayContaining(['brain_region', 'species']));
  });

  it('imports a CSV on the worker pool, whose threads run the compiled task module', async () => {
    const login = await call(service.url, 'POST', '/v1/user/auth/login', { body: SUPERUSER });
    expect(login.status).toBe(200);
    const imported = await call(service.url, 'POST', '/v1/ontology/import-csv?vocabulary=compiled_build', {
      body: syntheticTermCsv(50),
      token: login.body.access_token,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ created: 50, vocabularies: ['compiled_build'] });
    expect((await call(service.url, 'GET', '/v1/ontology/terms?vocabulary=compiled_build&limit=1')).body.total).toBe(50);
  });

  it('publishes the shipped datasets on first start, parsed by the compiled ingest tasks', async () => {
    const login = await call(service.url, 'POST', '/v1/user/auth/login', { body: SUPERUSER });
    const list = await call(service.url, 'GET', '/v1/neurodata/datasets?limit=50', { token: login.body.access_token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(12);
    const v1 = await call(service.url, 'GET', '/v1/neurodata/datasets/celegans_varshney_2011/versions/v1', { token: login.body.access_token });
    expect(v1.body.row_counts).toMatchObject({ neurons: 280, chemical_connections: 2194, electrical_connections: 517 });
  });

  it('serves the documentation pages and their assets from node_modules', async () => {
    // Bodies are read to the end: a response still being sent would hold the server open when it stops.
    const status = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${service.url}${path}`, { headers });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await status('/docs')).toBe(200);
    expect(await status('/docs/assets/swagger-ui-bundle.js')).toBe(200);
    expect(await status('/graphql', { accept: 'text/html' })).toBe(200);
    expect(await status('/docs/assets/graphiql.min.js')).toBe(200);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    expect(await service.stop()).toEqual({ code: 0, signal: null });
    expect(service.tree()).toEqual([]);
  });
});
