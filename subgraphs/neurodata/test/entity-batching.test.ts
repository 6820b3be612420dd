import { PassThrough } from 'node:stream';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, gql, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';

/** The gateway's debug line for each fetch of a subgraph, read from the app's log stream. */
function fetchLog() {
  const lines: Array<{ subgraph: string; representations: number | null; requestId: string }> = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.includes('"subgraph fetch"')) continue;
      const o = JSON.parse(line);
      lines.push({ subgraph: o.subgraph, representations: o.representations, requestId: o.requestId });
    }
  });
  return { stream, lines };
}

describe('a page of datasets across subgraphs', () => {
  let t: TestApp;
  const log = fetchLog();
  let users: TestUser[];

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'debug' }, { logStream: log.stream });
    users = [];
    for (let i = 0; i < 5; i++) users.push(await createUser(t, { accountType: 'ACADEMIC' }));
    for (let i = 0; i < 50; i++) {
      const owner = users[i % users.length];
      const r = await call(t.url, 'POST', '/v1/neurodata/datasets', {
        token: owner.accessToken,
        body: { title: `Batch ${i}`, species: ['NCBITaxon:6239'], brain_regions: [i % 2 ? 'nerve ring' : 'ventral nerve cord'] },
      });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  it('costs one fetch of identity and one ontology fetch per term field for 50 datasets, not 50', async () => {
    const su = await createUser(t, { accountType: 'SUPERUSER' });
    log.lines.length = 0;
    const r = await gql(
      t.url,
      '{ modifiableDatasets(limit: 50) { total items { id owner { id display_name } species { code term { id label } } brain_regions { term { label } } } } }',
      {},
      su.accessToken,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.modifiableDatasets.items).toHaveLength(50);
    const owners = new Set(r.body.data.modifiableDatasets.items.map((d: { owner: { display_name: string } }) => d.owner.display_name));
    expect(owners.size).toBe(5);
    expect(r.body.data.modifiableDatasets.items[0].species[0].term.label).toBe('Caenorhabditis elegans');
    const requestId = r.headers.get('x-request-id');
    const fetches = log.lines.filter((l) => l.requestId === requestId);
    const by = (s: string) => fetches.filter((f) => f.subgraph === s);
    expect(by('neurodata')).toHaveLength(1);
    expect(by('identity')).toHaveLength(1);
    // One fetch carries every reference; the subgraph's DataLoader turns them into one query.
    expect(by('identity')[0].representations).toBe(50);
    // The planner fetches the species terms and the region terms as two parallel fetches: one per field, not per dataset.
    expect(by('ontology').length).toBeLessThanOrEqual(2);
    expect(by('ontology').reduce((n, f) => n + (f.representations ?? 0), 0)).toBe(100);
  });
});
