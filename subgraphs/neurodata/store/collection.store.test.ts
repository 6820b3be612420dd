import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { CollectionStore } from './collection.store.js';

const COLLECTION = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const DATASET = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const USER = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const AT = new Date('2026-01-01T00:00:00Z');

const recorder = () => recordedStore((db) => new CollectionStore(db));

describe(CollectionStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/collection.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.insert({ id: COLLECTION, ownerId: USER, title: 'Larval connectomes', description: '', visibility: 'private', createdAt: AT });
    await store.list(USER, false, { limit: 20, offset: 0 });
    await store.list(USER, true, { limit: 20, offset: 0 });
    await store.addItem(COLLECTION, DATASET, USER, AT);
    await store.removeItem(COLLECTION, DATASET, AT);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/collection.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.find(COLLECTION);
    await store.delete(COLLECTION);
    expect(statementNames(statements)).toEqual(['CollectionStore.find', 'CollectionStore.delete']);
  });
});
