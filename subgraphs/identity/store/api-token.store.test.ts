import { describe, it, expect } from 'vitest';
import { sqlRecorder, snapshotText } from '../../../test/kit/sql-recorder.js';
import { ApiTokenStore } from './api-token.store.js';

const ID = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const ACCOUNT = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const NOW = new Date('2026-01-01T00:00:00Z');

/** A token row joined with its account, as node-postgres returns it: timestamps as text. */
const ROW = {
  id: ID,
  account_id: ACCOUNT,
  name: 'laptop',
  scope: 'compute',
  prefix: 'ndt_abcd',
  created_at: '2026-01-01 00:00:00+00',
  expires_at: '2026-04-01 00:00:00+00',
  last_used_at: null,
  last_used_ip: null,
  revoked_at: '2026-02-01 00:00:00+00',
  revoked_reason: 'credentials_changed',
  account_type: 'REGULAR',
  verified: false,
  deactivated_at: null,
  total: 1,
};

describe(ApiTokenStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/api-token.store.sql; vitest -u rewrites it)', async () => {
    const { db, statements } = sqlRecorder();
    const store = new ApiTokenStore(db);
    await store.insert({ id: ID, accountId: ACCOUNT, name: 'laptop', scope: 'read', hash: 'h', prefix: 'ndt_abcd', createdAt: NOW, expiresAt: NOW }, 20);
    await store.findByHash('h');
    await store.findById(ID);
    await store.list(ACCOUNT, { includeEnded: false, now: NOW, limit: 50, offset: 0 });
    await store.revoke(ID, 'owner', NOW);
    await store.revokeAll(ACCOUNT, 'credentials_changed', NOW);
    await store.recordUse(ID, NOW, '192.0.2.1');
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/api-token.store.sql');
  });

  it('reads a token found by its hash with its account as stored', async () => {
    const token = {
      id: ID,
      accountId: ACCOUNT,
      name: 'laptop',
      scope: 'compute',
      prefix: 'ndt_abcd',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      expiresAt: new Date('2026-04-01T00:00:00Z'),
      lastUsedAt: null,
      lastUsedIp: null,
      revokedAt: new Date('2026-02-01T00:00:00Z'),
      revokedReason: 'credentials_changed',
    };
    const store = new ApiTokenStore(sqlRecorder([ROW]).db);
    expect(await store.findByHash('h')).toEqual({ ...token, accountType: 'REGULAR', verified: false, deactivatedAt: null });
    expect(await store.list(ACCOUNT, { includeEnded: true, now: NOW, limit: 50, offset: 0 })).toEqual({ items: [token], total: 1 });
  });

  it('refuses a scope outside the closed set', async () => {
    const store = new ApiTokenStore(sqlRecorder([{ ...ROW, scope: 'admin' }]).db);
    await expect(store.findById(ID)).rejects.toThrow(/^ApiTokenStore\.findById returned a row that does not match its shape: scope: /);
  });
});
