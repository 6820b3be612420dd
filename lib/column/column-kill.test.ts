import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom, engineEnvFromProcess } from '../config.js';
import { openColumn, type ColumnStore } from './column.js';
import { ch } from './sql.js';

// chDB without CLICKHOUSE_URL, the server with it.
let column: ColumnStore;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'column-kill-test-'));
  const database = `column_kill_${process.pid}_${Date.now().toString(36)}`;
  column = await openColumn(configFrom({ LOG_LEVEL: 'silent', ...engineEnvFromProcess(), CLICKHOUSE_CLUSTER: '', DATA_DIR: dataDir, CLICKHOUSE_DATABASE: database }).column);
});

afterAll(async () => {
  if (column?.kind === 'clickhouse') await column.command({ sql: `DROP DATABASE IF EXISTS ${column.database}`, params: {} }, { name: 'test.drop' });
  await column?.close();
  await rm(dataDir, { recursive: true, force: true });
});

// Minutes of work for one thread: only a kill ends it within the test's time.
const LONG = ch`SELECT count(), sum(cityHash64(number)) FROM numbers(20000000000)`;

describe('ColumnStore.kill', () => {
  it('stops a running query by the id it was given, mid-computation, and the engine is free at once', async () => {
    const started = Date.now();
    const running = column.query(LONG, { name: 'test.long', queryId: 'kill-probe_1', maxExecutionTime: 600 });
    running.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 400));
    expect(await column.kill('kill-probe_1')).toBe(true);
    await expect(running).rejects.toThrow(/cancel/i);
    const [row] = await column.query<{ one: number }>(ch`SELECT 1 AS one`, { name: 'test.after' });
    expect(row.one).toBe(1);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('stops a query with bound values too (the engine prints those without their comments)', async () => {
    const running = column.queryTsv(ch`SELECT count(), sum(cityHash64(number)) FROM numbers(20000000000) WHERE number > ${5}`, { name: 'test.bound', queryId: 'kill-probe_2', maxExecutionTime: 600 });
    const drained = (async () => {
      for await (const _ of running);
    })();
    drained.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 400));
    expect(await column.kill('kill-probe_2')).toBe(true);
    await expect(drained).rejects.toThrow(/cancel/i);
  });

  it('finds nothing to stop for an id no query runs under, and refuses ids that are not plain', async () => {
    expect(await column.kill('kill-probe_absent')).toBe(false);
    await expect(column.kill("x' OR 1 --")).rejects.toThrow(/invalid ClickHouse query id/);
  });
});
