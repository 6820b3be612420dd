import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../kit/processes.js';
import { startTestApp, call } from '../kit/app.js';
import { eventually } from '../kit/eventually.js';
import { sql } from 'drizzle-orm';

const hasClickhouseServer = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v clickhouse-server'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const script = path.resolve(import.meta.dirname, '../../scripts/clickhouse-server.sh');

describe('GET /health', () => {
  // chDB allows one data directory per process, so each test stops its app before the next starts one.
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups.length = 0;
  });

  it('is healthy with a measured latency for each required component and search not configured', async () => {
    const t = await startTestApp();
    const r = await call(t.url, 'GET', '/health');
    await t.close();
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('healthy');
    expect(Object.keys(r.body.components).sort()).toEqual(['column_db', 'relational_db', 'search', 'storage']);
    for (const name of ['relational_db', 'column_db', 'storage']) {
      expect(r.body.components[name].status).toBe('ok');
      expect(Number.isInteger(r.body.components[name].latency_ms)).toBe(true);
      expect(r.body.components[name].latency_ms).toBeGreaterThanOrEqual(0);
    }
    expect(r.body.components.search).toEqual({ status: 'not_configured' });
  });

  it('answers while requests hold every pooled connection, and after its own connection is lost', async ({ skip }) => {
    const t = await startTestApp();
    cleanups.push(() => t.close());
    if (t.app.stores.relational.kind !== 'postgres') skip('PGlite has one connection; its thread answers a ping while a statement holds it');
    const db = t.app.stores.relational.db;
    const rows = async (q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: Record<string, unknown>[] }).rows;
    // More statements than the pool has connections, each holding one for two seconds.
    let held = false;
    const busy = Promise.all(Array.from({ length: 12 }, () => db.execute(sql`SELECT pg_sleep(2)`))).then(() => (held = false));
    held = true;
    const r = await call(t.url, 'GET', '/health');
    expect(r.status).toBe(200);
    expect(held).toBe(true);
    await busy;
    // The ping's own connection, ended by the server: the next check opens another and stays healthy.
    const ended = await rows(sql`SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity WHERE application_name = 'health check' AND datname = current_database()`);
    expect(ended.length).toBe(1);
    await eventually(async () => (await rows(sql`SELECT 1 FROM pg_stat_activity WHERE application_name = 'health check' AND datname = current_database()`)).length === 0);
    const after = await call(t.url, 'GET', '/health');
    expect(after.status).toBe(200);
    expect(after.body.components.relational_db.status).toBe('ok');
  });

  it('is degraded (503) when a configured Typesense cannot be reached', async () => {
    const port = await freePort();
    const t = await startTestApp({ TYPESENSE_URL: `http://127.0.0.1:${port}`, TYPESENSE_API_KEY: 'key', HEALTH_TIMEOUT_MS: '1000' });
    const r = await call(t.url, 'GET', '/health');
    await t.close();
    expect(r.status).toBe(503);
    expect(r.body.status).toBe('degraded');
    expect(r.body.components.search.status).toBe('error');
    expect(r.body.components.search.latency_ms).toBeUndefined();
    expect(r.body.components.relational_db.status).toBe('ok');
  });

  it('is degraded when the ClickHouse server is unreachable, and the service still starts', async () => {
    const port = await freePort();
    const t = await startTestApp({ CLICKHOUSE_URL: `http://127.0.0.1:${port}`, HEALTH_TIMEOUT_MS: '1000' });
    cleanups.push(() => t.close());
    const r = await call(t.url, 'GET', '/health');
    expect(r.status).toBe(503);
    expect(r.body.status).toBe('degraded');
    expect(r.body.components.column_db.status).toBe('error');
    expect(Number.isInteger(r.body.components.column_db.latency_ms)).toBe(true);
    // Operations that do not need the column store keep working.
    expect((await call(t.url, 'GET', '/v1/federation/ping')).status).toBe(200);
  });

  it.skipIf(!hasClickhouseServer)('turns degraded when a running ClickHouse server stops', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ch-health-'));
    // The server listens on the port after its HTTP port too (TCP): taken, it exits at start.
    const port = await freePort({ consecutive: 2 });
    cleanups.push(() => {
      execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    });
    // The script's log, if the server does not start, is in the error's message.
    execFileSync('bash', [script, 'start', dir, String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    const t = await startTestApp({ CLICKHOUSE_URL: `http://127.0.0.1:${port}`, HEALTH_TIMEOUT_MS: '1500' });
    cleanups.push(() => t.close());
    const before = await call(t.url, 'GET', '/health');
    expect(before.status).toBe(200);
    expect(before.body.components.column_db.status).toBe('ok');

    execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' });
    const after = await eventually(
      async () => {
        const r = await call(t.url, 'GET', '/health');
        return r.status === 200 ? undefined : r;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: '/health noticing the stopped ClickHouse server' },
    );
    expect(after.status).toBe(503);
    expect(after.body.status).toBe('degraded');
    expect(after.body.components.column_db.status).toBe('error');
    // The server's start alone may take up to 90 s beside the other test runs.
  }, 180_000);
});
