import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../config.js';
import { engineEnvFromProcess } from '../../../test/kit/settings.js';
import { engineLimitOf, openColumn, type ColumnStore } from '../column.js';
import { ch } from '../sql.js';
import { eventually } from '../../../test/kit/eventually.js';

// chDB without CLICKHOUSE_URL, the server with it.
let column: ColumnStore;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'column-memory-test-'));
  const database = `column_memory_${process.pid}_${Date.now().toString(36)}`;
  column = await openColumn(configFrom({ LOG_LEVEL: 'silent', ...engineEnvFromProcess(), CLICKHOUSE_CLUSTER: '', DATA_DIR: dataDir, CLICKHOUSE_DATABASE: database }).column);
});

afterAll(async () => {
  if (column?.kind === 'clickhouse') await column.command({ sql: `DROP DATABASE IF EXISTS ${column.database}`, params: {} }, { name: 'test.drop' });
  await column?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
/** An array of ten billion strings: far beyond the limit below, refused when it reaches it (seconds on either engine). */
const HEAVY = ch`SELECT length(groupArray(toString(number))) FROM numbers(10000000000)`;
const LIMIT = 512 * MiB;

describe('the column store after statements refused at their memory limit', () => {
  it('refuses eight at once by name, and the process holds no more memory afterwards than before', async () => {
    await column.query(ch`SELECT 1`, { name: 'test.warm', parallel: true });
    const before = process.memoryUsage.rss();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => column.query(HEAVY, { name: `test.heavy${i}`, parallel: true, maxExecutionTime: 300, limits: { maxMemoryUsage: LIMIT } })),
    );
    for (const o of outcomes) {
      expect(o.status).toBe('rejected');
      expect(engineLimitOf((o as PromiseRejectedResult).reason)).toBe('memory');
    }
    // Eight statements of up to 512 MiB each were held at once; what they freed goes back to the system.
    await eventually(() => (process.memoryUsage.rss() - before) / MiB < 300, { what: 'the memory of the refused statements handed back', timeoutMs: 30_000, intervalMs: 200 });
  }, 600_000);
});
