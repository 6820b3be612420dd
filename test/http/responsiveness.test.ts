import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, type TestApp } from '../kit/app.js';
import { createUser } from '../kit/users.js';
import { createDataset, uploadFile } from '../kit/datasets.js';
import { pollHealth, startHeavyRequests } from '../kit/heavy-requests.js';

// How fast /health answers is measured by `npm run bench -- responsiveness`; a test only checks that it answers.
describe('GET /health while heavy requests run', () => {
  let t: TestApp;
  beforeAll(async () => {
    // On the embedded engine the import's transaction has the one connection to itself, and the validation waits
    // for it; the generous timeout keeps a slow machine from turning that wait into a 408.
    // On a port: heavy requests and health checks arrive over connections of their own, as from many clients.
    // The stores' probes get a timeout that a loaded CI machine (both engine sets at once on two cores) cannot turn
    // into a 503: how fast they answer is the benchmark's to measure.
    t = await startTestApp(
      { RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000', REQUEST_TIMEOUT_MS: '280000', HEALTH_TIMEOUT_MS: '20000' },
      { listen: true },
    );
  });
  afterAll(async () => t?.close());

  // A third of the benchmark's import keeps the suite quick; the request thread does the same work either way.
  it('keeps answering 200 during a maximal validation, a 20,000-row import and alias floods, and nothing answers 5xx', async () => {
    const su = await createUser(t, { accountType: 'SUPERUSER' });
    const heavy = startHeavyRequests(t, { superuserToken: su.accessToken, importRows: 20_000 });
    const health = await pollHealth(t.url, heavy);
    const outcomes = await heavy;

    expect(health.length).toBeGreaterThan(3);
    expect(health.filter((h) => h.status !== 200).map((h) => JSON.stringify(h))).toEqual([]);
    expect(Object.fromEntries(outcomes.map((o) => [o.name, o.status]))).toEqual({
      validate: 200,
      import: 200,
      '200 aliases': 400,
      'largest allowed query': 200,
    });
    const imported = await fetch(`${t.url}/v1/ontology/terms?vocabulary=load_test&limit=1`).then((r) => r.json());
    expect(imported.total).toBe(20_000);
  }, 300_000);

  it('keeps answering 200 while a 300,000-row connections file is parsed and ingested', async () => {
    const owner = await createUser(t, { accountType: 'ACADEMIC' });
    const d = await createDataset(t, owner, { title: 'Responsiveness under ingestion' });
    const neurons = ['neuron_id,cell_class,cell_type,neurotransmitter,is_neuron'];
    for (let i = 0; i < 5000; i++) neurons.push(`n${i},c${i % 50},interneuron,,true`);
    expect((await uploadFile(t, owner, d.id, 'neurons.csv', neurons.join('\n'))).status).toBe(201);
    const rows = ['pre,post,synapse_type,weight'];
    for (let i = 0; i < 300_000; i++) rows.push(`n${i % 5000},n${(i * 7919 + Math.floor(i / 5000)) % 5000},chemical,${1 + (i % 17)}`);
    // Pairs repeat in this pattern; keep each (pre, post) once, as a connections file lists them.
    const unique = [rows[0], ...new Set(rows.slice(1).map((r) => r.replace(/,\d+$/, ''))).values()].map((r, i) => (i === 0 ? r : `${r},${1 + (i % 17)}`));
    const upload = uploadFile(t, owner, d.id, 'connections.csv', unique.join('\n'));
    const health = await pollHealth(t.url, upload);
    const done = await upload;
    expect(done.status, JSON.stringify(done.body).slice(0, 300)).toBe(201);
    expect(done.body.items[0].rows).toBe(unique.length - 1);
    expect(health.length).toBeGreaterThan(1);
    expect(health.filter((h) => h.status !== 200).map((h) => JSON.stringify(h))).toEqual([]);
  }, 300_000);
});
