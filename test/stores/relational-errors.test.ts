import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser } from '../kit/users.js';

describe('the relational store after a failed statement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_BURST: '100000' });
  });
  afterAll(async () => t?.close());

  it('answers the next statement (PGlite serves one connection: a dropped one used to fail the next query)', async () => {
    const db = t.app.stores.relational.db;
    const failures: string[] = [];
    for (let i = 0; i < 20; i++) {
      await expect(db.execute(sql`select 1 / ${0}::int`)).rejects.toThrow();
      try {
        await db.execute(sql`select 1`);
      } catch (e) {
        failures.push(String((e as Error & { cause?: Error }).cause?.message ?? e));
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers the request after a conflict with its own status, not a 500', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 10; i++) {
      const again = await call(t.url, 'POST', '/v1/user/auth/register', { body: { email: user.email, password: 'another long password', display_name: 'Twin' } });
      expect(again.status).toBe(409);
      expect((await call(t.url, 'GET', '/v1/user/profile', { token: user.accessToken })).status).toBe(200);
    }
  });
});
