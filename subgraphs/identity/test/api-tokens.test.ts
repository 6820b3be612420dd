import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createApiToken, createUser, type TestUser } from '../../../test/kit/users.js';
import { ManualClock } from '../../../lib/clock.js';
import { identity } from '../index.js';

const SYQL = 'MATCH (a:Neuron) IN "nope"@latest RETURN a.name';

describe('personal API tokens', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date());
  let academic: TestUser;

  beforeAll(async () => {
    t = await startTestApp({}, { clock });
    academic = await createUser(t, { accountType: 'ACADEMIC' });
  });
  afterAll(async () => t?.close());

  it('is shown once at creation, listed without the token, and used as a Bearer credential with the last use recorded', async () => {
    const made = await call(t.url, 'POST', '/v1/user/tokens', { token: academic.accessToken, body: { name: '  laptop   notebooks ', scope: 'read' } });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^ndt_[A-Za-z0-9_-]{43}$/);
    const expires = new Date(made.body.api_token.expires_at).getTime() - new Date(made.body.api_token.created_at).getTime();
    expect(expires).toBe(90 * 86_400_000);
    expect(made.body.api_token).toMatchObject({ name: 'laptop notebooks', scope: 'read', prefix: made.body.token.slice(0, 10), last_used_at: null, revoked_at: null, account_id: academic.id });

    const listed = await call(t.url, 'GET', '/v1/user/tokens', { token: academic.accessToken });
    expect(listed.status).toBe(200);
    const row = listed.body.items.find((i: { id: string }) => i.id === made.body.api_token.id);
    expect(row).toBeDefined();
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);

    const read = await call(t.url, 'GET', '/v1/neurodata/datasets', { token: made.body.token });
    expect(read.status).toBe(200);
    const viaGraphql = await gql(t.url, '{ profile { id account_type } }', {}, made.body.token);
    expect(viaGraphql.body.data.profile).toEqual({ id: academic.id, account_type: 'ACADEMIC' });

    const after = await call(t.url, 'GET', '/v1/user/tokens', { token: academic.accessToken });
    const used = after.body.items.find((i: { id: string }) => i.id === made.body.api_token.id);
    expect(used.last_used_at).not.toBeNull();
    expect(used.last_used_ip).toMatch(/127\.0\.0\.1/);
  });

  it('holds each scope to what it covers', async () => {
    const read = await createApiToken(t, academic, 'read');
    const compute = await createApiToken(t, academic, 'compute');
    const write = await createApiToken(t, academic, 'write');
    const syql = (token: string) => call(t.url, 'POST', '/v1/syql/exec', { token, body: { query: SYQL } });
    const refused = await syql(read.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/read scope and syqlExec needs compute/);
    expect((await syql(compute.token)).status).not.toBe(403);

    const create = (token: string) => call(t.url, 'POST', '/v1/neurodata/datasets', { token, body: { title: 'Scoped', species: ['Caenorhabditis elegans'], license: 'CC-BY-4.0' } });
    const noWrite = await create(compute.token);
    expect(noWrite.status).toBe(403);
    expect(noWrite.body.error).toMatch(/compute scope and createDataset needs write/);
    expect((await create(write.token)).status).toBe(201);

    const gqlRefused = await gql(t.url, 'mutation { syqlCancel(query_id: "x") { cancelled } }', {}, read.token);
    expect(gqlRefused.status).toBe(403);
  });

  it('never manages tokens, passwords or emails, verifies, links identities or promotes', async () => {
    const write = await createApiToken(t, academic, 'write');
    const refusals = [
      await call(t.url, 'GET', '/v1/user/tokens', { token: write.token }),
      await call(t.url, 'POST', '/v1/user/tokens', { token: write.token, body: { name: 'more', scope: 'write' } }),
      await call(t.url, 'DELETE', `/v1/user/tokens/${write.id}`, { token: write.token }),
      await call(t.url, 'POST', '/v1/user/auth/password', { token: write.token, body: { new_password: 'a-new-password-1', current_password: academic.password } }),
      await call(t.url, 'PATCH', '/v1/user/profile', { token: write.token, body: { email: 'other@example.org', current_password: academic.password } }),
      await call(t.url, 'GET', '/v1/user/authenticate/institutional/authorize', { token: write.token }),
      await call(t.url, 'POST', `/v1/user/${academic.id}/promote`, { token: write.token }),
    ];
    for (const r of refusals) {
      expect(r.status).toBe(403);
      expect(r.body.error).toMatch(/needs a signed-in person, not an API token/);
    }
    const mutation = await gql(t.url, 'mutation { createApiToken(input: {name: "x"}) { token } }', {}, write.token);
    expect(mutation.status).toBe(403);
  });

  it('says whether a refused token is wrong, expired or revoked', async () => {
    const wrong = await call(t.url, 'GET', '/v1/neurodata/datasets', { token: `ndt_${'A'.repeat(43)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatch(/not valid: it was never issued here or is mistyped/);

    const short = await createApiToken(t, academic, 'read', { expiresInDays: 1 });
    clock.advance(86_400_000 + 1000);
    const expired = await call(t.url, 'GET', '/v1/neurodata/datasets', { token: short.token });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatch(/expired on/);

    // The login's access token has expired with the clock: log in again.
    const login = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: academic.email, password: academic.password } });
    academic = { ...academic, accessToken: login.body.access_token, refreshToken: login.body.refresh_token };
    const live = await createApiToken(t, academic, 'read');
    const revoked = await call(t.url, 'DELETE', `/v1/user/tokens/${live.id}`, { token: academic.accessToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: live.id, revoked_reason: 'owner' });
    const again = await call(t.url, 'DELETE', `/v1/user/tokens/${live.id}`, { token: academic.accessToken });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const used = await call(t.url, 'GET', '/v1/neurodata/datasets', { token: live.token });
    expect(used.status).toBe(401);
    expect(used.body.error).toMatch(/revoked on .* by its owner/);

    const listed = await call(t.url, 'GET', '/v1/user/tokens?include_revoked=true', { token: academic.accessToken });
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([live.id, short.id]));
    const liveOnly = await call(t.url, 'GET', '/v1/user/tokens', { token: academic.accessToken });
    expect(liveOnly.body.items.map((i: { id: string }) => i.id)).not.toEqual(expect.arrayContaining([live.id]));
  });

  it('refuses bad input naming the field', async () => {
    for (const [body, field] of [
      [{ name: 'x', scope: 'admin' }, /scope/],
      [{ name: 'x', expires_in_days: 366 }, /expires_in_days: an integer from 1 to 365/],
      [{ name: 'x', expires_in_days: 0 }, /expires_in_days/],
      [{ name: '   ' }, /name: required/],
      [{ name: 'x'.repeat(101) }, /name: at most 100/],
    ] as const) {
      const r = await call(t.url, 'POST', '/v1/user/tokens', { token: academic.accessToken, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatch(field);
    }
  });

  it("reads the account's class at use time: gained and lost at once", async () => {
    const person = await createUser(t, { accountType: 'REGULAR' });
    const token = (await createApiToken(t, person, 'read')).token;
    expect((await call(t.url, 'GET', '/v1/neurodata/datasets', { token })).status).toBe(403);
    await (await identity.use(t.app.deps).accountAdmin()).markAcademicVerified(person.id);
    expect((await call(t.url, 'GET', '/v1/neurodata/datasets', { token })).status).toBe(200);
    await t.app.stores.relational.db.execute(sql`update identity.accounts set account_type = 'REGULAR', verified = false where id = ${person.id}`);
    expect((await call(t.url, 'GET', '/v1/neurodata/datasets', { token })).status).toBe(403);
  });

  it("ends every token of an account when its password changes, and lets a SuperUser list and revoke anyone's", async () => {
    const person = await createUser(t, { accountType: 'ACADEMIC' });
    const other = await createUser(t, { accountType: 'ACADEMIC' });
    const admin = await createUser(t, { accountType: 'SUPERUSER' });
    const a = await createApiToken(t, person, 'read');
    const b = await createApiToken(t, person, 'compute');

    expect((await call(t.url, 'GET', `/v1/user/tokens?user_id=${person.id}`, { token: other.accessToken })).status).toBe(403);
    expect((await call(t.url, 'DELETE', `/v1/user/tokens/${a.id}`, { token: other.accessToken })).status).toBe(404);
    const seen = await call(t.url, 'GET', `/v1/user/tokens?user_id=${person.id}`, { token: admin.accessToken });
    expect(seen.body.items.map((i: { id: string }) => i.id).sort()).toEqual([a.id, b.id].sort());
    const byAdmin = await call(t.url, 'DELETE', `/v1/user/tokens/${a.id}`, { token: admin.accessToken });
    expect(byAdmin.body.revoked_reason).toBe('superuser');
    expect((await call(t.url, 'GET', '/v1/neurodata/datasets', { token: a.token })).body.error).toMatch(/by an administrator/);

    const changed = await call(t.url, 'POST', '/v1/user/auth/password', { token: person.accessToken, body: { new_password: 'a brand new password', current_password: person.password } });
    expect(changed.status).toBe(200);
    const after = await call(t.url, 'GET', '/v1/neurodata/datasets', { token: b.token });
    expect(after.status).toBe(401);
    expect(after.body.error).toMatch(/because the account's password or email changed/);
  });

  it('ends the tokens and logins of a deactivated account', async () => {
    const person = await createUser(t, { accountType: 'ACADEMIC' });
    const token = (await createApiToken(t, person, 'read')).token;
    const admin = await identity.use(t.app.deps).accountAdmin();
    expect((await admin.deactivate(person.email)).action).toBe('deactivated');
    const used = await call(t.url, 'GET', '/v1/neurodata/datasets', { token });
    expect(used.status).toBe(401);
    expect(used.body.error).toMatch(/because the account was deactivated/);
    const login = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email: person.email, password: person.password } });
    expect(login.status).toBe(401);
    expect(login.body.error).toMatch(/deactivated/);
    const refresh = await call(t.url, 'POST', '/v1/user/auth/refresh', { body: { refresh_token: person.refreshToken } });
    expect(refresh.status).toBe(401);
    expect((await admin.deactivate(person.email)).action).toBe('unchanged');
  });
});
