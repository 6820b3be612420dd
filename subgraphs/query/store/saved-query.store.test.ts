import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { SavedQueryStore } from './saved-query.store.js';

const ID = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const OWNER = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const JOB = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const AT = new Date('2026-01-01T00:00:00Z');

const recorder = () => recordedStore((db) => new SavedQueryStore(db));

describe(SavedQueryStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/saved-query.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.insert({ id: ID, ownerId: OWNER, name: 'mushroom body', description: null, syql: 'neurons where region = $region', parameters: { region: 'MB' }, createdAt: AT });
    await store.list(OWNER, { limit: 20, offset: 0 });
    await store.update(ID, { name: 'mushroom body 2', description: null, parameters: { region: 'MB' } }, AT);
    await store.recordRun(ID, JOB, AT);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/saved-query.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.find(ID);
    await store.delete(ID);
    expect(statementNames(statements)).toEqual(['SavedQueryStore.find', 'SavedQueryStore.delete']);
  });
});
