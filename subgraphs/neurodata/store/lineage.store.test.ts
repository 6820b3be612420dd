import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { LineageStore } from './lineage.store.js';

const LINK = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const DATASET = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const SOURCE = '0190f3a4-5b6c-7d8e-9f00-112233445568';
const USER = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';

const recorder = () => recordedStore((db) => new LineageStore(db));

describe(LineageStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/lineage.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.insert({
      id: LINK, datasetId: DATASET, sourceDatasetId: SOURCE, sourceVersion: 2, sourceTitle: 'Adult hemibrain', relation: 'derived_from', description: null,
      createdBy: USER, createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    await store.upstream(DATASET);
    await store.downstream(DATASET);
    await store.reaches(SOURCE, DATASET);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/lineage.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.upstream(DATASET);
    await store.reaches(SOURCE, DATASET);
    expect(statementNames(statements)).toEqual(['LineageStore.upstream', 'LineageStore.reaches']);
  });
});
