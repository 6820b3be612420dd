import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createApiToken, createUser, type TestUser } from '../../../test/kit/users.js';
import { expectError } from '../../../test/kit/expect.js';

const NEEDS_ACADEMIC = '/v1/jobs';
/** An Academic route read without side effects: 200 for Academic callers, 403 for Regular ones. */
const academicRead = (token: string) => call(t.url, 'GET', NEEDS_ACADEMIC, { token });

let t: TestApp;

describe('POST and DELETE /v1/user/{user_id}/verify', () => {
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await createUser(t, { accountType: 'SUPERUSER' });
  });
  afterAll(async () => t?.close());

  it('a SuperUser verifies a Regular account: Academic at once for its token, recorded with who, when and why on its profile', async () => {
    const u = await createUser(t);
    expectError(await academicRead(u.accessToken), 403, /verified academic account/);
    const r = await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: { reason: 'member of the Example lab, checked with its PI' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ changed: true, account: { id: u.id, account_type: 'ACADEMIC', verified: true, verification: { method: 'SUPERUSER', verified_by: admin.id, reason: 'member of the Example lab, checked with its PI' } } });

    expect((await academicRead(u.accessToken)).status).toBe(200);
    const profile = await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken });
    expect(profile.body).toMatchObject({ account_type: 'ACADEMIC', verified: true, verification: { method: 'SUPERUSER', verified_by: admin.id, reason: 'member of the Example lab, checked with its PI' } });
    expect(Date.parse(profile.body.verification.verified_at)).toBeGreaterThan(Date.now() - 60_000);
    const graphql = await gql(t.url, '{ profile { verification { method verified_by reason } } }', {}, u.accessToken);
    expect(graphql.body.data.profile.verification).toEqual({ method: 'SUPERUSER', verified_by: admin.id, reason: 'member of the Example lab, checked with its PI' });
  });

  it('verifying an Academic account again changes nothing and keeps the first record (200, changed: false)', async () => {
    const u = await createUser(t);
    await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: { reason: 'first' } });
    const again = await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: { reason: 'second' } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ changed: false, message: expect.stringMatching(/already is Academic/), account: { verification: { reason: 'first' } } });
  });

  it('taking a verification back makes the account Regular, and its existing access and API tokens lose Academic access at once', async () => {
    const u = await createUser(t, { accountType: 'ACADEMIC' });
    const { token } = await createApiToken(t, u, 'compute');
    expect((await academicRead(u.accessToken)).status).toBe(200);
    expect((await academicRead(token)).status).toBe(200);

    const r = await call(t.url, 'DELETE', `/v1/user/${u.id}/verify`, { token: admin.accessToken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ changed: true, account: { account_type: 'REGULAR', verified: false, verification: null } });
    expectError(await academicRead(u.accessToken), 403, /verified academic account/);
    expectError(await academicRead(token), 403, /verified academic account/);
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken })).body).toMatchObject({ account_type: 'REGULAR', verification: null });
    // The next refresh carries the Regular type.
    const refreshed = await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: u.refreshToken } });
    expectError(await academicRead(refreshed.body.access_token), 403);

    const again = await call(t.url, 'DELETE', `/v1/user/${u.id}/verify`, { token: admin.accessToken });
    expect(again.body).toMatchObject({ changed: false, message: expect.stringMatching(/already is Regular/) });
    // And it can be verified again.
    expect((await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: { reason: 'back in the lab' } })).body.changed).toBe(true);
    expect((await academicRead(u.accessToken)).status).toBe(200);
  });

  it('refuses callers below SuperUser (403), without a token (401), and API tokens, before reading the body', async () => {
    const u = await createUser(t);
    const academic = await createUser(t, { accountType: 'ACADEMIC' });
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { body: { reason: 'x' } }), 401);
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: academic.accessToken, body: { reason: 'x' } }), 403, /SuperUser/);
    expectError(await call(t.url, 'DELETE', `/v1/user/${academic.id}/verify`, { token: academic.accessToken }), 403, /SuperUser/);
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: u.accessToken, body: 'not json at all' as never, headers: { 'content-type': 'application/json' } }), 403);
    const { token: adminToken } = await createApiToken(t, admin, 'write');
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: adminToken, body: { reason: 'x' } }), 403, /API token/);
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken })).body.account_type).toBe('REGULAR');
  });

  it('answers 404 for unknown and malformed ids, 409 for Service and SuperUser accounts, 400 without a reason or with a long one', async () => {
    const u = await createUser(t);
    const service = await createUser(t, { accountType: 'SERVICE' });
    expectError(await call(t.url, 'POST', `/v1/user/${randomUUID()}/verify`, { token: admin.accessToken, body: { reason: 'x' } }), 404);
    expectError(await call(t.url, 'POST', '/v1/user/not-a-uuid/verify', { token: admin.accessToken, body: { reason: 'x' } }), 404);
    expectError(await call(t.url, 'DELETE', `/v1/user/${randomUUID()}/verify`, { token: admin.accessToken }), 404);
    expectError(await call(t.url, 'POST', `/v1/user/${service.id}/verify`, { token: admin.accessToken, body: { reason: 'x' } }), 409, /Service account has academic access by its type/);
    expectError(await call(t.url, 'DELETE', `/v1/user/${admin.id}/verify`, { token: admin.accessToken }), 409, /SuperUser account/);
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: {} }), 400, /reason/);
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: { reason: '' } }), 400, /^reason: say why/);
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: { reason: '   ' } }), 400, /^reason:/);
    expectError(await call(t.url, 'POST', `/v1/user/${u.id}/verify`, { token: admin.accessToken, body: { reason: 'x'.repeat(501) } }), 400, /at most 500 characters/);
    expect((await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken })).body.account_type).toBe('REGULAR');
  });

  it('GET /v1/user/accounts lists accounts for SuperUsers, searched by email and paged', async () => {
    const tag = randomUUID().slice(0, 8);
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await createUser(t, { email: `listed-${tag}-${i}@example.org` }));
    await call(t.url, 'POST', `/v1/user/${people[1]!.id}/verify`, { token: admin.accessToken, body: { reason: 'listed' } });
    const page = await call(t.url, 'GET', `/v1/user/accounts?email=LISTED-${tag}&limit=2`, { token: admin.accessToken });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.items.map((a: { email: string }) => a.email)).toEqual([`listed-${tag}-2@example.org`, `listed-${tag}-1@example.org`]);
    expect(page.body.items[1].verification).toMatchObject({ method: 'SUPERUSER', reason: 'listed' });
    const next = await call(t.url, 'GET', `/v1/user/accounts?email=listed-${tag}&limit=2&offset=2`, { token: admin.accessToken });
    expect(next.body.items.map((a: { email: string }) => a.email)).toEqual([`listed-${tag}-0@example.org`]);
    // `%` and `_` are taken literally.
    expect((await call(t.url, 'GET', `/v1/user/accounts?email=${encodeURIComponent('listed_%')}`, { token: admin.accessToken })).body.total).toBe(0);
    expectError(await call(t.url, 'GET', '/v1/user/accounts', { token: people[0]!.accessToken }), 403);
  });
});

describe('the refusal of Academic operations says what works on this install', () => {
  // One app at a time: chDB allows one data directory per process.
  it('without an institutional login: ask a SuperUser to verify the account, or create-superuser on your own machine', async () => {
    const local = await startTestApp();
    try {
      const u = await createUser(local);
      const r = await call(local.url, 'GET', NEEDS_ACADEMIC, { token: u.accessToken });
      expectError(r, 403, /verified academic account/);
      expect(r.body.error).toMatch(/no institutional login/);
      expect(r.body.error).toContain('POST /v1/user/{user_id}/verify');
      expect(r.body.error).toContain('/admin/accounts');
      expect(r.body.error).toContain('npm run admin -- create-superuser --email <you> --password -');
      expect(r.body.error).not.toContain('/v1/user/authenticate/institutional/authorize');
      expect((await call(local.url, 'GET', '/v1/user/authenticate/institutional/authorize?mode=json', { token: u.accessToken })).status).toBe(404);
      const graphql = await gql(local.url, '{ jobs { total } }', {}, u.accessToken);
      expect(graphql.body.errors[0].message).toBe(r.body.error);
    } finally {
      await local.close();
    }
  });

  it('with an institutional login configured: the institutional route, which answers there', async () => {
    // Only the settings: the provider is asked nothing until someone starts a verification.
    const institutional = await startTestApp({ PUBLIC_URL: 'http://127.0.0.1:9', OIDC_INSTITUTIONAL_ISSUER: 'https://idp.example.org', OIDC_INSTITUTIONAL_CLIENT_ID: 'neurodata' });
    try {
      const u = await createUser(institutional);
      const r = await call(institutional.url, 'GET', NEEDS_ACADEMIC, { token: u.accessToken });
      expectError(r, 403, /complete institutional verification at \/v1\/user\/authenticate\/institutional\/authorize$/);
    } finally {
      await institutional.close();
    }
  });
});
