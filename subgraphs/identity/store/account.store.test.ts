import { describe, it, expect } from 'vitest';
import { sqlRecorder, snapshotText } from '../../../test/kit/sql-recorder.js';
import { AccountStore } from './account.store.js';

const ID = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const NOW = new Date('2026-01-01T00:00:00Z');

/** An account row as node-postgres returns it: timestamps as text, jsonb parsed. */
const ROW = {
  id: ID,
  email: 'Ada@example.org',
  display_name: 'Ada',
  account_type: 'ACADEMIC',
  verified: true,
  affiliation: null,
  orcid: null,
  bio: null,
  links: ['https://example.org/ada'],
  scientist_tag: null,
  deactivated_at: null,
  created_at: '2026-01-01 00:00:00+00',
  updated_at: '2026-01-02 00:00:00+00',
  password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  total: '1',
};

describe(AccountStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/account.store.sql; vitest -u rewrites it)', async () => {
    const { db, statements } = sqlRecorder();
    const store = new AccountStore(db);
    await store.insert({ id: ID, email: 'Ada@example.org', emailKey: 'ada@example.org', passwordHash: null, displayName: 'Ada', accountType: 'REGULAR', verified: false, now: NOW });
    await store.findById(ID);
    await store.findByIds([ID]);
    await store.findCredentials('ada@example.org');
    await store.list({ emailContains: 'ada_%', limit: 50, offset: 0 });
    await store.changeType(ID, ['REGULAR'], 'ACADEMIC', true, NOW);
    await store.updateProfile(ID, { displayName: 'Ada L.', links: ['https://example.org/ada'] }, NOW);
    await store.deactivate(ID, NOW);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/account.store.sql');
  });

  it('reads a row as either driver returns it into an account', async () => {
    const expected = {
      id: ID,
      email: 'Ada@example.org',
      displayName: 'Ada',
      accountType: 'ACADEMIC',
      verified: true,
      affiliation: null,
      orcid: null,
      bio: null,
      links: ['https://example.org/ada'],
      scientistTag: null,
      deactivatedAt: null,
      createdAt: new Date('2026-01-01T00:00:00Z'),
      updatedAt: new Date('2026-01-02T00:00:00Z'),
    };
    expect(await new AccountStore(sqlRecorder([ROW]).db).findById(ID)).toEqual(expected);
    // jsonb as text, should a driver stop parsing it
    expect(await new AccountStore(sqlRecorder([{ ...ROW, links: '["https://example.org/ada"]' }]).db).findById(ID)).toEqual(expected);
    expect(await new AccountStore(sqlRecorder([ROW]).db).findCredentials('ada@example.org')).toEqual({ account: expected, passwordHash: ROW.password_hash });
    expect(await new AccountStore(sqlRecorder([ROW]).db).list({ limit: 50, offset: 0 })).toEqual({ items: [expected], total: 1 });
  });

  it('refuses a row outside its shape, naming the query and the column', async () => {
    const store = new AccountStore(sqlRecorder([{ ...ROW, account_type: 'ADMIN' }]).db);
    await expect(store.findById(ID)).rejects.toThrow(/^AccountStore\.findById returned a row that does not match its shape: account_type: /);
  });
});
