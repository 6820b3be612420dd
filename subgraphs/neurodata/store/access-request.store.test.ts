import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { AccessRequestStore } from './access-request.store.js';

const REQUEST = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const DATASET = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const OTHER = '0190f3a4-5b6c-7d8e-9f00-112233445568';
const USER = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const MAINTAINER = '0190f3a4-5b6c-7d8e-9f00-aabbccddeef0';
const AT = new Date('2026-01-01T00:00:00Z');

const recorder = () => recordedStore((db) => new AccessRequestStore(db));

describe(AccessRequestStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/access-request.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.upsert({ id: REQUEST, datasetId: DATASET, requesterId: USER, message: 'for a thesis', now: AT });
    await store.statusesFor([DATASET, OTHER], USER);
    await store.forDataset(DATASET);
    await store.decide(REQUEST, { status: 'approved', decidedBy: MAINTAINER, responseMessage: null, now: AT });
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/access-request.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.forRequester(DATASET, USER);
    await store.find(DATASET, REQUEST);
    expect(statementNames(statements)).toEqual(['AccessRequestStore.forRequester', 'AccessRequestStore.find']);
  });
});
