import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApp, call, createTestEngines, type TestApp, type TestEngines } from '../../../test/kit/app.js';
import { createUser } from '../../../test/kit/users.js';
import { ManualClock } from '../../../lib/clock.js';
import { requireTestRedis } from '../../../test/kit/redis.js';
import { serveSubgraph, type SubgraphProcess } from '../../../test/kit/processes.js';

const uniqueEmail = () => `user-${randomUUID()}@example.org`;
/** The test app trusts X-Forwarded-For from loopback, so each test can speak from its own client addresses. */
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const login = (base: string, email: string, password: string, ip: string) =>
  call(base, 'POST', '/v1/user/auth/login', { body: { email, password }, headers: from(ip) });
const graphql = (base: string, query: string, ip: string) => call(base, 'POST', '/graphql', { body: { query }, headers: from(ip) });

describe('login throttling per email and client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('checks at most five of 50 concurrent wrong passwords from one address and refuses the rest with 429 and Retry-After', async () => {
    const u = await createUser(t);
    const guesses = await Promise.all(Array.from({ length: 50 }, (_, i) => login(t.url, u.email, `wrong-guess-${i}`, '203.0.113.10')));
    const checked = guesses.filter((r) => r.status === 401);
    const refused = guesses.filter((r) => r.status === 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.length + refused.length).toBe(50);
    for (const r of refused) {
      expect(r.body).toEqual({ error: expect.stringMatching(/^too many failed logins for this email from your address: try again in \d+ s$/) });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The guesser's address is locked even for the right password ...
    expect((await login(t.url, u.email, u.password, '203.0.113.10')).status).toBe(429);
    // ... but the owner, logging in from anywhere else, is not.
    const owner = await login(t.url, u.email, u.password, '198.51.100.20');
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect(owner.body.access_token).toMatch(/^v4\.public\./);
  });

  it('clears the count of an address when the right password is given from it', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 4; i++) expect((await login(t.url, u.email, `typo-${i}`, '203.0.113.11')).status).toBe(401);
    expect((await login(t.url, u.email, u.password, '203.0.113.11')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(t.url, u.email, `typo-again-${i}`, '203.0.113.11')).status).toBe(401);
    expect((await login(t.url, u.email, u.password, '203.0.113.11')).status).toBe(200);
  });

  it('throttles wrong current passwords of a password change like logins', async () => {
    const u = await createUser(t);
    const change = (current: string) =>
      call(t.url, 'POST', '/v1/user/auth/password', { token: u.accessToken, body: { new_password: 'a new passphrase', current_password: current }, headers: from('203.0.113.12') });
    for (let i = 0; i < 5; i++) expect((await change(`not-it-${i}`)).status).toBe(403);
    const locked = await change(u.password);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatch(/too many wrong current_password attempts for this account from your address/);
  });
});

describe('password-check budget per client address', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    // Five checks at once, one more every 10 s.
    t = await startTestApp({ TRUST_PROXY: '127.0.0.1', PASSWORD_CHECK_BURST: '5', PASSWORD_CHECK_REFILL_PER_MIN: '6' }, { clock });
  });
  afterAll(async () => t?.close());

  it('stops one address from trying a password across many accounts, without touching other addresses', async () => {
    const sprayed = [];
    for (let i = 0; i < 6; i++) sprayed.push(await login(t.url, uniqueEmail(), 'Summer2030!', '203.0.113.20'));
    expect(sprayed.slice(0, 5).map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(sprayed[5].status).toBe(429);
    expect(sprayed[5].body).toEqual({ error: 'too many password attempts from your address: try again in 10 s' });
    expect(sprayed[5].headers.get('retry-after')).toBe('10');
    expect((await login(t.url, uniqueEmail(), 'Summer2030!', '203.0.113.21')).status).toBe(401);
    clock.advance(10_000);
    expect((await login(t.url, uniqueEmail(), 'Summer2030!', '203.0.113.20')).status).toBe(401);
    expect((await login(t.url, uniqueEmail(), 'Summer2030!', '203.0.113.20')).status).toBe(429);
  });

  it('runs no more password checks than the budget for one GraphQL request full of login aliases', async () => {
    const email = uniqueEmail();
    const password = 'correct horse battery';
    const created = await call(t.url, 'POST', '/v1/user/auth/register', { body: { email, password, display_name: 'Aliased' }, headers: from('203.0.113.30') });
    expect(created.status).toBe(201);
    const aliases = Array.from({ length: 12 }, (_, i) => `a${i}: login(email: "${email}", password: "${password}") { access_token }`).join('\n');
    const r = await graphql(t.url, `mutation {\n${aliases}\n}`, '203.0.113.31');
    // Five checks pass; the sixth is refused, and a non-null field's error ends the rest of the mutation.
    expect(r.body.errors).toEqual([expect.objectContaining({ path: ['a5'], extensions: expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 10 }) })]);
  });

  it('creates no more accounts than the budget from one GraphQL request full of registerAccount aliases', async () => {
    const emails = Array.from({ length: 12 }, () => uniqueEmail());
    const aliases = emails.map((e, i) => `r${i}: registerAccount(email: "${e}", password: "long enough password", display_name: "Alias ${i}") { id }`).join('\n');
    const r = await graphql(t.url, `mutation {\n${aliases}\n}`, '203.0.113.40');
    expect(r.body.errors).toEqual([expect.objectContaining({ path: ['r5'], extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) })]);
    // Which accounts exist, asked from a fresh address each time so the budget does not get in the way.
    const exists = [];
    for (const [i, e] of emails.entries()) exists.push((await login(t.url, e, 'long enough password', `198.51.100.${100 + i}`)).status === 200);
    expect(exists).toEqual([true, true, true, true, true, false, false, false, false, false, false, false]);
  });
});

describe('login throttling across instances', () => {
  const shared = { REDIS_URL: '', REDIS_KEY_PREFIX: `nd-test-${randomUUID()}:`, TRUST_PROXY: '127.0.0.1' };
  let engines: TestEngines;
  let identity: SubgraphProcess;
  beforeAll(async () => {
    shared.REDIS_URL = await requireTestRedis();
    engines = await createTestEngines();
    identity = await serveSubgraph('identity', engines, { LOG_LEVEL: 'warn', ...shared });
  });
  afterAll(async () => {
    await identity?.stop();
    await engines?.drop();
  });

  it('locks an address for an email at every instance that shares REDIS_URL', async () => {
    const t = await startTestApp(shared);
    try {
      const email = uniqueEmail();
      for (let i = 0; i < 5; i++) expect((await login(t.url, email, `guess-${i}`, '203.0.113.50')).status).toBe(401);
      const elsewhere = (ip: string) =>
        call(identity.origin, 'POST', '/graphql', {
          body: { query: 'mutation($e: String!) { login(email: $e, password: "one more guess") { access_token } }', variables: { e: email } },
          headers: from(ip),
        });
      expect((await elsewhere('203.0.113.50')).body.errors[0].extensions.code).toBe('RATE_LIMITED');
      expect((await elsewhere('203.0.113.51')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    } finally {
      await t.close();
    }
  }, 120_000);

  it('a gateway passes the client address on to a remotely served identity subgraph', async () => {
    const t = await startTestApp({ ...shared, SUBGRAPH_IDENTITY_URL: identity.url });
    try {
      const email = uniqueEmail();
      const password = 'the owner knows this';
      const created = await call(t.url, 'POST', '/v1/user/auth/register', { body: { email, password, display_name: 'Remote Owner' }, headers: from('198.51.100.60') });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      for (let i = 0; i < 5; i++) expect((await login(t.url, email, `guess-${i}`, '203.0.113.60')).status).toBe(401);
      expect((await login(t.url, email, password, '203.0.113.60')).status).toBe(429);
      // Were the gateway's own address all the subgraph saw, the owner would be locked out with the guesser.
      expect((await login(t.url, email, password, '198.51.100.60')).status).toBe(200);
    } finally {
      await t.close();
    }
  }, 120_000);
});
