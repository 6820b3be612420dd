import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { LoginCodeStore } from './social-login.store.js';

const ACCOUNT = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const NOW = new Date('2026-01-01T00:00:00Z');

const recorder = () => recordedStore((db) => new LoginCodeStore(db));

describe(LoginCodeStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/social-login.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.save('code-hash', { accountId: ACCOUNT, provider: 'github', accountCreated: false, createdAt: NOW, expiresAt: new Date('2026-01-01T00:01:00Z') });
    await store.consume('code-hash', NOW);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/social-login.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.consume('code-hash', NOW);
    await store.purge(NOW);
    expect(statementNames(statements)).toEqual(['LoginCodeStore.consume', 'LoginCodeStore.purge']);
  });
});
