import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { SessionStore } from './session.store.js';

const TOKEN = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const FAMILY = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const ACCOUNT = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const NOW = new Date('2026-01-01T00:00:00Z');
const TOKEN_ROW = { id: TOKEN, familyId: FAMILY, accountId: ACCOUNT, tokenHash: 'h', issuedAt: NOW, expiresAt: new Date('2026-01-31T00:00:00Z') };

const recorder = () => recordedStore((db) => new SessionStore(db));

describe(SessionStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/session.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.startFamily(FAMILY, TOKEN_ROW);
    await store.consume(TOKEN, 'h', NOW);
    await store.findToken(TOKEN);
    await store.revokeFamily(FAMILY, 'reuse', NOW);
    await store.revokeAccountFamilies(ACCOUNT, FAMILY, 'credentials_changed', NOW);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/session.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.insertToken(TOKEN_ROW);
    await store.findToken(TOKEN);
    expect(statementNames(statements)).toEqual(['SessionStore.insertToken', 'SessionStore.findToken']);
  });
});
