import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { InstitutionalStore } from './institutional.store.js';

const ACCOUNT = '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff';
const LINK = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const NOW = new Date('2026-01-01T00:00:00Z');
const ISSUER = 'https://login.example.edu';

const recorder = () => recordedStore((db) => new InstitutionalStore(db));

describe(InstitutionalStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/institutional.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.saveFlow('state-hash', {
      provider: 'orcid', purpose: 'login', accountId: null, mode: 'redirect', bindingHash: 'binding-hash', codeVerifier: 'verifier', nonce: 'nonce',
      redirectUri: 'https://app.example.org/login', createdAt: NOW, expiresAt: new Date('2026-01-01T00:10:00Z'),
    });
    await store.consumeFlow('state-hash', 'orcid', NOW);
    await store.findVerification(ACCOUNT);
    await store.upsertVerification({
      accountId: ACCOUNT, issuer: ISSUER, subject: 'ada', institution: 'Example University', email: 'ada@example.edu', emailDomain: 'example.edu',
      affiliations: ['faculty@example.edu'], verifiedAt: NOW,
    });
    await store.upsertLink({ id: LINK, accountId: ACCOUNT, provider: 'github', issuer: 'https://github.com', subject: '42', name: 'Ada', username: 'ada', email: null, linkedAt: NOW });
    await store.findLinkByIdentity('github', 'https://github.com', '42');
    await store.listLinks(ACCOUNT);
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/institutional.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.purgeFlows(NOW);
    await store.transaction(async (tx) => {
      await tx.findLink(ACCOUNT, 'github');
      await tx.deleteLink(ACCOUNT, 'github');
    });
    expect(statementNames(statements)).toEqual([
      'InstitutionalStore.purgeFlows',
      'InstitutionalStore.findLink',
      'InstitutionalStore.deleteLink',
    ]);
  });
});
