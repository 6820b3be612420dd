import { describe, it, expect } from 'vitest';
import { sqlRecorder, snapshotText } from '../../../test/kit/sql-recorder.js';
import { DraftDerivationStore, IngestProgressStore } from './ingest-progress.store.js';

const DATASET = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const USER = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const NOW = new Date('2026-01-01T00:10:00Z');
const STALE_BEFORE = new Date('2026-01-01T00:05:00Z');

/** The ingest under way, as node-postgres returns it: timestamps as text, its heartbeat older than STALE_BEFORE. */
const STALE_ROW = {
  dataset_id: DATASET,
  version: 1,
  filename: 'synapses.csv',
  kind: 'synapses',
  stage: 'reading',
  rows: 1000,
  bytes_read: '65536',
  bytes_total: '1048576',
  started_by: USER,
  started_at: '2026-01-01 00:00:00+00',
  heartbeat_at: '2026-01-01 00:01:00+00',
};

const FILE = { datasetId: DATASET, version: 1, filename: 'neurons.csv', kind: 'neurons', bytesTotal: 2048, startedBy: USER };

describe(IngestProgressStore.name, () => {
  it('keeps the SQL of the ingest slot and of the stale drafts as reviewed (store/__sql__/ingest-progress.store.sql; vitest -u rewrites it)', async () => {
    const free = sqlRecorder();
    // A free slot whose insert is answered by no row reads the slot again to name the winner, and finds none.
    await expect(new IngestProgressStore(free.db).claim(FILE, NOW, STALE_BEFORE)).rejects.toThrow(/^IngestProgressStore\.claim: /);
    const { db, statements } = sqlRecorder([STALE_ROW]);
    const store = new IngestProgressStore(db);
    expect(await store.claim(FILE, NOW, STALE_BEFORE)).toMatchObject({ claimed: true, tookOver: { filename: 'synapses.csv' } });
    await store.report(DATASET, 'neurons.csv', { stage: 'deriving', rows: 302, bytesRead: 2048 }, NOW);
    const drafts = new DraftDerivationStore(db);
    await drafts.markStale(DATASET, 1, NOW);
    await drafts.staleVersion(DATASET);
    await expect(snapshotText([...free.statements, ...statements])).toMatchFileSnapshot('./__sql__/ingest-progress.store.sql');
  });

  it('names every statement after its method', async () => {
    const { db, statements } = sqlRecorder();
    await new IngestProgressStore(db).current(DATASET);
    await new IngestProgressStore(db).release(DATASET, 'neurons.csv');
    await new DraftDerivationStore(db).clear(DATASET);
    expect(statements.map((s) => s.match(/^\/\* ((?:IngestProgressStore|DraftDerivationStore)\.\w+) \*\//)?.[1])).toEqual([
      'IngestProgressStore.current',
      'IngestProgressStore.release',
      'DraftDerivationStore.clear',
    ]);
  });
});
