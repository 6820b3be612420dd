import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser } from '../../../test/kit/users.js';
import { expectError } from '../../../test/kit/expect.js';

const patch = (t: TestApp, token: string, body: Record<string, unknown>) => call(t.url, 'PATCH', '/v1/user/profile', { body, token });

/** One app: every test creates its own users. */
describe('profiles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  describe('/v1/user/profile', () => {
    it('updates display name, affiliation, ORCID, bio and links, and the change reads back', async () => {
      const u = await createUser(t);
      const r = await patch(t, u.accessToken, {
        display_name: '  Rita   Levi-Montalcini ',
        affiliation: 'Istituto Superiore di Sanità',
        orcid: 'https://orcid.org/0000-0002-1825-0097',
        bio: 'Nerve growth factor.',
        links: ['https://example.org/rita'],
      });
      expect(r.status).toBe(200);
      const me = await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken });
      expect(me.body).toMatchObject({
        id: u.id,
        email: u.email,
        display_name: 'Rita Levi-Montalcini',
        affiliation: 'Istituto Superiore di Sanità',
        orcid: '0000-0002-1825-0097',
        bio: 'Nerve growth factor.',
        links: ['https://example.org/rita'],
        scientist_tag: null,
      });
    });

    it('leaves absent fields alone and clears a field sent as null', async () => {
      const u = await createUser(t);
      await patch(t, u.accessToken, { affiliation: 'Somewhere', bio: 'Something' });
      const r = await patch(t, u.accessToken, { bio: null });
      expect(r.body).toMatchObject({ affiliation: 'Somewhere', bio: null });
    });

    it('refuses a bad ORCID checksum, non-http links and over-long fields with 400', async () => {
      const u = await createUser(t);
      expectError(await patch(t, u.accessToken, { orcid: '0000-0002-1825-0098' }), 400, /^orcid: .*checksum/);
      expectError(await patch(t, u.accessToken, { links: ['mailto:a@example.org'] }), 400, /^links\[0\]/);
      expectError(await patch(t, u.accessToken, { bio: 'x'.repeat(2001) }), 400, /^bio:/);
      expectError(await patch(t, u.accessToken, { display_name: null }), 400, /^display_name/);
    });

    it('changes the email only with the current password', async () => {
      const u = await createUser(t);
      const email = `moved-${randomUUID()}@example.org`;
      expectError(await patch(t, u.accessToken, { email }), 400, /current_password/);
      expectError(await patch(t, u.accessToken, { email, current_password: 'wrong password' }), 403, /current_password/);
      const ok = await patch(t, u.accessToken, { email, current_password: u.password });
      expect(ok.status).toBe(200);
      expect(ok.body.email).toBe(email);
      expect((await call(t.url, 'POST', '/v1/user/auth/login', { body: { email, password: u.password } })).status).toBe(200);
      const other = await createUser(t);
      expectError(await patch(t, other.accessToken, { email: email.toUpperCase(), current_password: other.password }), 409);
    });

    it('needs a token (401)', async () => {
      expectError(await call(t.url, 'GET', '/v1/user/profile'), 401);
      expectError(await call(t.url, 'GET', '/v1/user/profile', { token: 'v4.public.garbage' }), 401);
    });
  });

  describe('POST /v1/user/profile/scientist-tag', () => {
    it('generates a readable tag from the display name and returns the same one afterwards', async () => {
      const u = await createUser(t);
      await call(t.url, 'PATCH', '/v1/user/profile', { token: u.accessToken, body: { display_name: 'Santiago Ramón y Cajal' } });
      const first = await call(t.url, 'POST', '/v1/user/profile/scientist-tag', { token: u.accessToken });
      expect(first.status).toBe(200);
      expect(first.body.scientist_tag).toMatch(/^santiago-ramon-cajal-[2-9a-z]{4}$/);
      await call(t.url, 'PATCH', '/v1/user/profile', { token: u.accessToken, body: { display_name: 'Someone Else' } });
      const second = await call(t.url, 'POST', '/v1/user/profile/scientist-tag', { token: u.accessToken });
      expect(second.body.scientist_tag).toBe(first.body.scientist_tag);
      expect((await call(t.url, 'GET', '/v1/user/profile', { token: u.accessToken })).body.scientist_tag).toBe(first.body.scientist_tag);
    });

    it('gives different users with the same name different tags', async () => {
      const tags = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const u = await createUser(t);
        await call(t.url, 'PATCH', '/v1/user/profile', { token: u.accessToken, body: { display_name: 'Camillo Golgi' } });
        tags.add((await call(t.url, 'POST', '/v1/user/profile/scientist-tag', { token: u.accessToken })).body.scientist_tag);
      }
      expect(tags.size).toBe(3);
    });
  });

  describe('GET /v1/user/profile/{user_id}', () => {
    it('shows public fields of another user and never the email', async () => {
      const owner = await createUser(t);
      await call(t.url, 'PATCH', '/v1/user/profile', { token: owner.accessToken, body: { affiliation: 'Cajal Institute', orcid: '0000-0002-1825-0097' } });
      const viewer = await createUser(t);
      const r = await call(t.url, 'GET', `/v1/user/profile/${owner.id}`, { token: viewer.accessToken });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: owner.id, affiliation: 'Cajal Institute', orcid: '0000-0002-1825-0097', account_type: 'REGULAR' });
      expect(r.body).not.toHaveProperty('email');
      expect(JSON.stringify(r.body)).not.toContain(owner.email);
    });

    it('answers 404 for unknown and malformed ids, and 401 without a token', async () => {
      const viewer = await createUser(t);
      expectError(await call(t.url, 'GET', `/v1/user/profile/${randomUUID()}`, { token: viewer.accessToken }), 404);
      expectError(await call(t.url, 'GET', '/v1/user/profile/not-a-uuid', { token: viewer.accessToken }), 404);
      expectError(await call(t.url, 'GET', `/v1/user/profile/${viewer.id}`), 401);
    });

    it('exposes no email field on the GraphQL public profile type', async () => {
      const viewer = await createUser(t);
      const r = await gql(t.url, 'query($id: String!) { publicProfile(user_id: $id) { id email } }', { id: viewer.id }, viewer.accessToken);
      expect(r.status).toBe(400);
      expect(r.body.errors[0].message).toMatch(/Cannot query field "email"/);
    });
  });

  describe('credential changes and other logins', () => {
    const login = async (email: string, password: string) => {
      const r = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email, password } });
      expect(r.status).toBe(200);
      return r.body as { access_token: string; refresh_token: string };
    };
    const refresh = (refresh_token: string) => call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token } });

    it('a password change signs out every other login and keeps the one that made it', async () => {
      const u = await createUser(t);
      const laptop = await login(u.email, u.password);
      const phone = await login(u.email, u.password);
      const changed = await call(t.url, 'POST', '/v1/user/auth/password', {
        token: laptop.access_token,
        body: { new_password: 'a fresh passphrase', current_password: u.password },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expectError(await refresh(phone.refresh_token), 401, /password or email changed: log in again/);
      expectError(await refresh(u.refreshToken), 401, /password or email changed/);
      const kept = await refresh(laptop.refresh_token);
      expect(kept.status).toBe(200);
      expect((await call(t.url, 'GET', '/v1/user/profile', { token: kept.body.access_token })).status).toBe(200);
      expect((await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: u.email, password: 'a fresh passphrase' } })).status).toBe(200);
    });

    it('an email change signs out every other login and keeps the one that made it', async () => {
      const u = await createUser(t);
      const other = await login(u.email, u.password);
      const ok = await patch(t, u.accessToken, { email: `moved-${randomUUID()}@example.org`, current_password: u.password });
      expect(ok.status).toBe(200);
      expectError(await refresh(other.refresh_token), 401, /password or email changed/);
      expect((await refresh(u.refreshToken)).status).toBe(200);
    });

    it('a profile change that keeps the email signs nobody out', async () => {
      const u = await createUser(t);
      const other = await login(u.email, u.password);
      expect((await patch(t, u.accessToken, { bio: 'Still here.', email: u.email })).status).toBe(200);
      expect((await refresh(other.refresh_token)).status).toBe(200);
    });
  });
});
