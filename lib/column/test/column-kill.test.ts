import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../config.js';
import { engineEnvFromProcess } from '../../../test/kit/settings.js';
import { engineLimitOf, openColumn, type ColumnStore } from '../column.js';
import { ch, ident } from '../sql.js';
import { eventually } from '../../../test/kit/eventually.js';

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
    // Retried until the engine lists the statement: a kill sent before that finds nothing.
    await eventually(() => column.kill('kill-probe_1'), { what: 'the running query killed' });
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
    await eventually(() => column.kill('kill-probe_2'), { what: 'the running query killed' });
    await expect(drained).rejects.toThrow(/cancel/i);
  });

  it('finds nothing to stop for an id no query runs under, and refuses ids that are not plain', async () => {
    expect(await column.kill('kill-probe_absent')).toBe(false);
    await expect(column.kill("x' OR 1 --")).rejects.toThrow(/invalid ClickHouse query id/);
  });
});

describe('engine limits of a statement', () => {
  const table = 'limit_probe';
  beforeAll(async () => {
    await column.command(ch`CREATE TABLE IF NOT EXISTS limit_probe (n UInt64) ENGINE = MergeTree ORDER BY n`, { name: 'test.create' });
    await column.command(ch`INSERT INTO limit_probe SELECT number FROM numbers(200000)`, { name: 'test.fill' });
  });

  const drain = async (q: ReturnType<typeof ch>, opts: Parameters<ColumnStore['queryTsv']>[1]) => {
    for await (const _ of column.queryTsv(q, opts));
  };

  it.each([true, false])('stops a statement past its rows, bytes, memory and result limits, with the code that names the limit (parallel: %s)', async (parallel) => {
    const read = ch`SELECT sum(n) FROM ${ident(table)} WHERE n > ${1}`;
    await expect(drain(read, { name: 'test.rows', limits: { maxRowsToRead: 1000 }, parallel }).catch(engineLimitOf)).resolves.toBe('rows_to_read');
    await expect(drain(read, { name: 'test.bytes', limits: { maxBytesToRead: 1000 }, parallel }).catch(engineLimitOf)).resolves.toBe('bytes_to_read');
    const big = ch`SELECT n % ${7} AS k, groupArray(n) FROM ${ident(table)} GROUP BY k`;
    await expect(drain(big, { name: 'test.memory', limits: { maxMemoryUsage: 1_000_000 }, parallel }).catch(engineLimitOf)).resolves.toBe('memory');
    await expect(drain(ch`SELECT n FROM ${ident(table)} WHERE n >= ${0}`, { name: 'test.result', limits: { maxResultRows: 10 }, parallel }).catch(engineLimitOf)).resolves.toBe('result_rows');
    const slow = ch`SELECT count(), sum(cityHash64(number)) FROM numbers(20000000000) WHERE number > ${5}`;
    await expect(drain(slow, { name: 'test.time', maxExecutionTime: 1, parallel }).catch(engineLimitOf)).resolves.toBe('execution_time');
    // Within its limits the same statement answers.
    let text = '';
    for await (const chunk of column.queryTsv(read, { name: 'test.ok', limits: { maxRowsToRead: 1_000_000, maxMemoryUsage: 100_000_000, maxThreads: 1 }, parallel })) text += chunk;
    expect(Number(text.trim())).toBe((199999 * 200000) / 2 - 1);
  });

  it('answers a ping while a long statement runs', async () => {
    const slow = drain(ch`SELECT count(), sum(cityHash64(number)) FROM numbers(20000000000) WHERE number > ${5}`, { name: 'test.long', queryId: 'ping-probe_1', maxExecutionTime: 600, parallel: true });
    slow.catch(() => undefined);
    await column.ping();
    // Still running after the ping answered (a statement that never ends unless killed): the ping did not wait for it.
    await eventually(() => column.kill('ping-probe_1'), { what: 'the long statement killed after the ping' });
    await slow.catch(() => undefined);
  });
});
