import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { VerificationStore } from './verification.store.js';

const ACCOUNT = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const OTHER = '0190f3a4-5b6c-7d8e-9f00-aabbccddeef0';
const SUPERUSER = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const NOW = new Date('2026-01-01T00:00:00Z');

const recorder = () => recordedStore((db) => new VerificationStore(db));

describe(VerificationStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/verification.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.latestOf([ACCOUNT, OTHER]);
    await store.recordBySuperUser({ accountId: ACCOUNT, verifiedBy: SUPERUSER, reason: 'known lab member', verifiedAt: NOW });
    await store.deleteAll(ACCOUNT);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/verification.store.sql');
  });

  it('names every statement after its method, one per kind of record when it writes both', async () => {
    const { store, statements } = recorder();
    await store.recordBySuperUser({ accountId: ACCOUNT, verifiedBy: null, reason: 'operator', verifiedAt: NOW });
    await store.deleteAll(ACCOUNT);
    expect(statementNames(statements)).toEqual([
      'VerificationStore.recordBySuperUser',
      'VerificationStore.deleteAll.superuser',
      'VerificationStore.deleteAll.institutional',
    ]);
  });
});
