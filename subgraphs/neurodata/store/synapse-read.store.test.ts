import { describe, expect, it } from 'vitest';
import type { ColumnQueryOptions, ColumnStore } from '../../../lib/column/column.js';
import { inline, type ChQuery } from '../../../lib/column/sql.js';
import type { ObjectStore } from '../../../lib/objects/objects.js';
import { SynapseReadStore } from './synapse-read.store.js';

const AT = { datasetId: '0190f3a4-5b6c-7d8e-9f00-112233445566', version: 2 };
const FLYWIRE = '720575940621039145';

/** A column store that answers nothing and keeps each statement as sent to a server without query parameters. */
function recorder(): { column: ColumnStore; statements: string[] } {
  const statements: string[] = [];
  const keep = (q: ChQuery, opts: ColumnQueryOptions) => void statements.push(`/* ${opts.name} */ ${inline(q).replace(/\n\s+/g, '\n  ')}`);
  const column = {
    kind: 'clickhouse',
    database: 'neurodata',
    async query<T>(q: ChQuery, opts: ColumnQueryOptions) {
      keep(q, opts);
      return [] as T[];
    },
    queryTsv(q: ChQuery, opts: ColumnQueryOptions) {
      keep(q, opts);
      return (async function* () {})();
    },
  } as unknown as ColumnStore;
  return { column, statements };
}

const discard = {
  async putStream(_key: string, stream: AsyncIterable<unknown>) {
    for await (const _ of stream) void _;
    return { size: 0, sha256: '' };
  },
} as unknown as ObjectStore;

describe(SynapseReadStore.name, () => {
  it('keeps the SQL of its queries as reviewed (store/__sql__/synapse-read.store.sql; vitest -u rewrites it)', async () => {
    const { column, statements } = recorder();
    const store = new SynapseReadStore(column);
    await store.readRois(AT);
    await store.roiCounts(AT);
    await store.neuronRois(AT, [FLYWIRE]);
    await store.neuronAnnotations(AT, [FLYWIRE]);
    // A page after a cursor, on one side, on either side, and every row of a box with scores.
    const after = { pre: FLYWIRE, post: '', synapseId: '17' };
    await store.readSynapses(AT, { pre: [FLYWIRE], rois: ['AL(R)', ''] }, { limit: 101, after });
    await store.readSynapses(AT, { post: [FLYWIRE] }, { limit: 101 });
    await store.readSynapses(AT, { neurons: [FLYWIRE, '720575940628934001'], minConfidence: 0.5 }, { limit: 101, after });
    await store.countSynapses(AT, { neurons: [FLYWIRE] });
    const box = { bbox: { min: [0, 0, 0] as [number, number, number], max: [1e5, 1e5, 1e5] as [number, number, number] }, minCleftScore: 50, minConnectionScore: 0.1, transmitters: ['ach'] };
    await store.exportSynapses(discard, 'tmp/rows/s.arrows', AT, box, {});
    await store.hasRoiConnections(AT);
    await store.readRoiConnections(AT, { rois: ['CA(R)'], minWeight: 5 }, false, { limit: 100, offset: 0 });
    await store.readRoiConnections(AT, { neurons: [FLYWIRE] }, true, { limit: 100, offset: 200 });
    await store.countRoiConnections(AT, { pre: [FLYWIRE] }, true);
    await store.exportRoiConnections(discard, 'tmp/rows/r.arrows', AT, { rois: ['CA(R)'] }, true, {});
    const text = ['-- SynapseReadStore (values as sent to ClickHouse 18.16, which has no query parameters)', ...statements.map((s) => `${s};`)].join('\n\n');
    await expect(`${text}\n`).toMatchFileSnapshot('./__sql__/synapse-read.store.sql');
  });

  it('refuses a dataset id that is no UUID before building any SQL', async () => {
    const { column, statements } = recorder();
    await expect(new SynapseReadStore(column).readRois({ datasetId: "x' OR 1", version: 1 })).rejects.toThrow(/dataset_id: must be a UUID/);
    expect(statements).toEqual([]);
  });
});
