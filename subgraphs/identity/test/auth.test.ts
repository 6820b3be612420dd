import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser } from '../../../test/kit/users.js';
import { ManualClock } from '../../../lib/clock.js';
import { expectError } from '../../../test/kit/expect.js';

const register = (t: TestApp, body: Record<string, unknown>) => call(t.url, 'POST', '/v1/user/auth/register', { body });
const login = (t: TestApp, email: string, password: string) => call(t.url, 'POST', '/v1/user/auth/login', { body: { email, password } });
const refresh = (t: TestApp, refresh_token: string) => call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token } });
const logout = (t: TestApp, refresh_token: string) => call(t.url, 'POST', '/v1/user/auth/logout', { body: { refresh_token } });
const profile = (t: TestApp, token: string) => call(t.url, 'GET', '/v1/user/profile', { token });
const uniqueEmail = () => `user-${randomUUID()}@example.org`;
const SERVICE_SECRET = 'a-service-secret-of-some-length';

/**
 * One app for the account and token rules: every test registers its own emails, and the clock only moves forward for
 * the lock and expiry rules, which read the tokens and counts of their own test. SERVICE_SECRET turns
 * register-service on; the instance without it is below.
 */
describe('accounts and tokens on one instance', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    t = await startTestApp({ SERVICE_SECRET }, { clock });
  });
  afterAll(async () => t?.close());

  describe('POST /v1/user/auth/register', () => {
    it('registers a Regular account and answers 201 with its public fields, never the hash', async () => {
      const r = await register(t, { email: '  Ada.Lovelace@Example.ORG ', password: 'analytical-engine', display_name: 'Ada Lovelace' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ email: 'Ada.Lovelace@example.org', display_name: 'Ada Lovelace', account_type: 'REGULAR', verified: false });
      expect(r.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
      expect(JSON.stringify(r.body)).not.toMatch(/argon2|password/);
    });

    it('answers 409 for an email already registered, whatever the case of the address', async () => {
      const email = uniqueEmail();
      expect((await register(t, { email, password: 'first-password', display_name: 'First' })).status).toBe(201);
      expectError(await register(t, { email: email.toUpperCase(), password: 'second-password', display_name: 'Second' }), 409, /already exists/);
    });

    it('answers 400 with the field named for bad input', async () => {
      expectError(await register(t, { email: 'not-an-email', password: 'long-enough-pw', display_name: 'X' }), 400, /^email:/);
      expectError(await register(t, { email: uniqueEmail(), password: 'short', display_name: 'X' }), 400, /^password: must be 8 to 1024/);
      expectError(await register(t, { email: uniqueEmail(), password: 'x'.repeat(1025), display_name: 'X' }), 400, /^password: must be 8 to 1024/);
      const email = uniqueEmail();
      expectError(await register(t, { email, password: email.toUpperCase(), display_name: 'X' }), 400, /must not be the email/);
      expectError(await register(t, { email: uniqueEmail(), password: 'long-enough-pw', display_name: '   ' }), 400, /^display_name:/);
      expectError(await register(t, { email: uniqueEmail(), password: 'long-enough-pw' }), 400, /display_name/);
    });

    it('accepts a password of exactly 8 and of exactly 1024 characters', async () => {
      expect((await register(t, { email: uniqueEmail(), password: '12345678', display_name: 'Eight' })).status).toBe(201);
      expect((await register(t, { email: uniqueEmail(), password: 'p'.repeat(1024), display_name: 'Long' })).status).toBe(201);
    });
  });

  describe('POST /v1/user/auth/login', () => {
    it('returns a PASETO v4.public pair: Bearer, 900 s', async () => {
      const email = uniqueEmail();
      await register(t, { email, password: 'correct horse', display_name: 'Horse' });
      const r = await login(t, email.toUpperCase(), 'correct horse');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, refresh_expires_in: 2592000 });
      expect(r.body.access_token).toMatch(/^v4\.public\./);
      expect(r.body.refresh_token).toMatch(/^v4\.public\./);
      expect((await profile(t, r.body.access_token)).body.email).toBe(email);
    });

    it('gives a wrong password and an unknown email the same 401 message', async () => {
      const u = await createUser(t);
      const wrongPassword = await login(t, u.email, 'not the password');
      const unknownEmail = await login(t, uniqueEmail(), 'not the password');
      expectError(wrongPassword, 401);
      expectError(unknownEmail, 401);
      expect(wrongPassword.body).toEqual(unknownEmail.body);
    });

    it('locks an email for the address that failed five times, answers 429 with Retry-After, and unlocks after the delay', async () => {
      const u = await createUser(t);
      for (let i = 0; i < 5; i++) expectError(await login(t, u.email, `wrong-${i}`), 401);
      const locked = await login(t, u.email, u.password);
      expectError(locked, 429, /too many failed logins/);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      clock.advance(16_000);
      expect((await login(t, u.email, u.password)).status).toBe(200);
      // Success clears the count: one more failure does not lock again.
      expectError(await login(t, u.email, 'wrong-again'), 401);
      expect((await login(t, u.email, u.password)).status).toBe(200);
    });

    it('throttles unknown emails the same way, so a lock says nothing about which emails exist', async () => {
      const email = uniqueEmail();
      for (let i = 0; i < 5; i++) expectError(await login(t, email, `wrong-${i}`), 401);
      expectError(await login(t, email, 'wrong-5'), 429);
      clock.advance(16_000);
    });

    it('doubles the lock with each further failure', async () => {
      const u = await createUser(t);
      for (let i = 0; i < 5; i++) await login(t, u.email, `wrong-${i}`);
      clock.advance(16_000);
      expectError(await login(t, u.email, 'wrong-6'), 401);
      const again = await login(t, u.email, u.password);
      expectError(again, 429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(15);
      clock.advance(31_000);
      expect((await login(t, u.email, u.password)).status).toBe(200);
    });

    it('answers 400 when a field is missing', async () => {
      expectError(await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: uniqueEmail() } }), 400, /password/);
    });
  });

  describe('POST /v1/user/auth/refresh and /logout', () => {
    it('rotates: the new pair works and the old refresh token is used up', async () => {
      const u = await createUser(t);
      const r = await refresh(t, u.refreshToken);
      expect(r.status).toBe(200);
      expect(r.body.refresh_token).not.toBe(u.refreshToken);
      expect((await profile(t, r.body.access_token)).status).toBe(200);
      const again = await refresh(t, r.body.refresh_token);
      expect(again.status).toBe(200);
    });

    it('revokes the whole family when a used refresh token is presented again', async () => {
      const u = await createUser(t);
      const first = await refresh(t, u.refreshToken);
      expect(first.status).toBe(200);
      expectError(await refresh(t, u.refreshToken), 401, /already used or revoked/);
      // The token the legitimate rotation produced is dead too: the thief and the owner must both log in again.
      expectError(await refresh(t, first.body.refresh_token), 401);
      // Another login (another family) is unaffected.
      const other = await login(t, u.email, u.password);
      expect((await refresh(t, other.body.refresh_token)).status).toBe(200);
    });

    it('lets exactly one of two concurrent refreshes with the same token win', async () => {
      const u = await createUser(t);
      const results = await Promise.all([refresh(t, u.refreshToken), refresh(t, u.refreshToken)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    });

    it('logout revokes the token and its family; logging out twice is fine', async () => {
      const u = await createUser(t);
      const rotated = await refresh(t, u.refreshToken);
      const out = await logout(t, rotated.body.refresh_token);
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ revoked: true });
      expectError(await refresh(t, rotated.body.refresh_token), 401);
      expect((await logout(t, rotated.body.refresh_token)).status).toBe(200);
    });

    it('refuses a forged, malformed or access token as a refresh token', async () => {
      const u = await createUser(t);
      expectError(await refresh(t, 'not-a-token'), 401);
      expectError(await refresh(t, u.accessToken), 401, /expected a refresh token/);
      const tampered = u.refreshToken.slice(0, 30) + (u.refreshToken[30] === 'A' ? 'B' : 'A') + u.refreshToken.slice(31);
      expectError(await refresh(t, tampered), 401);
      expectError(await call(t.url, 'POST', '/v1/user/auth/refresh', { body: {} }), 400, /refresh_token/);
    });

    it('never accepts a refresh token as an access token', async () => {
      const u = await createUser(t);
      expectError(await profile(t, u.refreshToken), 401, /refresh token cannot be used as an access token/);
    });

    it('expires access tokens after 15 minutes and refresh tokens after 30 days', async () => {
      const u = await createUser(t);
      clock.advance(14 * 60 * 1000);
      expect((await profile(t, u.accessToken)).status).toBe(200);
      clock.advance(2 * 60 * 1000);
      expectError(await profile(t, u.accessToken), 401, /expired/);
      const r = await refresh(t, u.refreshToken);
      expect(r.status).toBe(200);
      clock.advance(30 * 24 * 60 * 60 * 1000 + 60_000);
      expectError(await refresh(t, r.body.refresh_token), 401, /expired/);
    });
  });

  describe('POST /v1/user/auth/register-service', () => {
    it('creates a verified Service account with the right X-Service-Secret, and 403 otherwise', async () => {
      const email = uniqueEmail();
      const ok = await call(t.url, 'POST', '/v1/user/auth/register-service', { body: { email, password: 'service-password' }, headers: { 'x-service-secret': SERVICE_SECRET } });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ email, account_type: 'SERVICE', verified: true });
      const wrong = await call(t.url, 'POST', '/v1/user/auth/register-service', {
        body: { email: uniqueEmail(), password: 'service-password' },
        headers: { 'x-service-secret': `${SERVICE_SECRET}x` },
      });
      expectError(wrong, 403, /X-Service-Secret/);
      expectError(await call(t.url, 'POST', '/v1/user/auth/register-service', { body: { email: uniqueEmail(), password: 'service-password' } }), 403, /X-Service-Secret/);
      const tokens = await login(t, email, 'service-password');
      const me = await profile(t, tokens.body.access_token);
      expect(me.body).toMatchObject({ account_type: 'SERVICE', verified: true });
    });
  });

  describe('promotion to SuperUser', () => {
    it('lets a SuperUser promote a Regular account over REST, effective at once and in the next token', async () => {
      const admin = await createUser(t, { accountType: 'SUPERUSER' });
      const u = await createUser(t);
      const other = await createUser(t);
      const before = await call(t.url, 'POST', `/v1/user/${other.id}/promote`, { token: u.accessToken });
      expect(before.status).toBe(403);
      const r = await call(t.url, 'POST', `/v1/user/${u.id}/promote`, { token: admin.accessToken });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: u.id, account_type: 'SUPERUSER' });
      // The token issued before the promotion still claims REGULAR; the access check reads the account.
      const withOldToken = await call(t.url, 'POST', `/v1/user/${other.id}/promote`, { token: u.accessToken });
      expect(withOldToken.status, JSON.stringify(withOldToken.body)).toBe(200);
      const next = await refresh(t, u.refreshToken);
      expect((await profile(t, next.body.access_token)).body.account_type).toBe('SUPERUSER');
    });

    it('promotes an Academic account through the GraphQL mutation', async () => {
      const admin = await createUser(t, { accountType: 'SUPERUSER' });
      const u = await createUser(t, { accountType: 'ACADEMIC' });
      const r = await gql(t.url, 'mutation($id: String!) { promoteToSuperUser(user_id: $id) { id account_type } }', { id: u.id }, admin.accessToken);
      expect(r.body.data.promoteToSuperUser).toEqual({ id: u.id, account_type: 'SUPERUSER' });
    });

    it('refuses non-SuperUsers (403), Service accounts and SuperUsers (409), unknown or malformed ids (404)', async () => {
      const admin = await createUser(t, { accountType: 'SUPERUSER' });
      const academic = await createUser(t, { accountType: 'ACADEMIC' });
      const service = await createUser(t, { accountType: 'SERVICE' });
      expectError(await call(t.url, 'POST', `/v1/user/${service.id}/promote`, { token: academic.accessToken }), 403);
      expectError(await call(t.url, 'POST', `/v1/user/${service.id}/promote`, { token: admin.accessToken }), 409, /Regular and Academic/);
      expectError(await call(t.url, 'POST', `/v1/user/${admin.id}/promote`, { token: admin.accessToken }), 409, /already/);
      expectError(await call(t.url, 'POST', `/v1/user/${randomUUID()}/promote`, { token: admin.accessToken }), 404);
      expectError(await call(t.url, 'POST', '/v1/user/not-a-uuid/promote', { token: admin.accessToken }), 404);
    });
  });
});

/**
 * Without SERVICE_SECRET; then the same instance, stopped, is the first of the instances that share only its public
 * key (one app at a time: the embedded column store opens one data directory per process).
 */
describe('instances without a service secret or with only a public key', () => {
  let first: TestApp;
  beforeAll(async () => {
    first = await startTestApp();
  });
  afterAll(async () => first?.close());

  describe('POST /v1/user/auth/register-service', () => {
    it('is disabled (403) when no SERVICE_SECRET is configured', async () => {
      const r = await call(first.url, 'POST', '/v1/user/auth/register-service', { body: { email: uniqueEmail(), password: 'service-password' }, headers: { 'x-service-secret': SERVICE_SECRET } });
      expectError(r, 403, /disabled/);
    });
  });

  describe('GET /v1/user/auth/keys and verification elsewhere', () => {
    // Stops `first`: the last test of this block.
    it('publishes the signing key, and a second instance that knows only that public key accepts the first one’s tokens', async () => {
      let second: TestApp | undefined;
      let stranger: TestApp | undefined;
      try {
        const keys = await call(first.url, 'GET', '/v1/user/auth/keys');
        expect(keys.status).toBe(200);
        const signing = keys.body.keys.filter((k: { signing: boolean }) => k.signing);
        expect(signing).toHaveLength(1);
        expect(signing[0].public_key).toMatch(/^k4\.public\./);
        expect(signing[0].kid).toMatch(/^k4\.pid\./);
        const u = await createUser(first);
        await first.stop();

        second = await startTestApp({ TOKEN_PUBLIC_KEYS: signing[0].public_key });
        const secondKeys = await call(second.url, 'GET', '/v1/user/auth/keys');
        expect(secondKeys.body.keys).toContainEqual({ kid: signing[0].kid, public_key: signing[0].public_key, signing: false });
        // Authenticated (the account lives in the first instance's database, so the lookup is a 404, not a 401).
        expectError(await call(second.url, 'GET', `/v1/user/profile/${u.id}`, { token: u.accessToken }), 404);
        expectError(await call(second.url, 'GET', `/v1/user/profile/${u.id}`, { token: u.refreshToken }), 401);
        await second.stop();

        stranger = await startTestApp();
        expectError(await call(stranger.url, 'GET', `/v1/user/profile/${u.id}`, { token: u.accessToken }), 401, /key this service does not accept/);
      } finally {
        await second?.close();
        await stranger?.close();
      }
    });
  });
});
