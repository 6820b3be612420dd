import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser } from '../kit/users.js';
import { eventually } from '../kit/eventually.js';
import { codeOf, exposedMessage } from '../../lib/errors.js';

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

describe('the relational store when a connection breaks under a transaction', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('fails that transaction with a 503 naming the database, and the next statements get a working connection', async () => {
    const db = t.app.stores.relational.db;
    type Pooled = { connection: { stream: { destroy(): void } }; _queryable: boolean };
    const pool = (db as unknown as { $client: { _clients: Pooled[] } }).$client;
    const failure = await db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        // The socket to the engine goes (PGlite's worker socket, or a PostgreSQL server's TCP connection), as when the
        // engine restarts: the client this transaction holds hears it while no statement of it runs. The client is
        // the transaction's own (Drizzle's session holds it): the service's background work checks out others.
        const held = (tx as unknown as { session: { client: Pooled } }).session.client;
        held.connection.stream.destroy();
        await eventually(() => !pool._clients.includes(held) || held._queryable === false, { what: 'the client hearing its socket close' });
        await tx.execute(sql`select 2`);
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(codeOf(failure)).toBe('SERVICE_UNAVAILABLE');
    expect(exposedMessage(failure)).toBe('the relational database connection was lost; retry');
    const answered = await eventually(async () => ((await db.execute(sql`select 3 as n`)) as unknown as { rows: { n: number }[] }).rows[0].n, { what: 'a statement answered on a new connection' });
    expect(answered).toBe(3);
  });
});
