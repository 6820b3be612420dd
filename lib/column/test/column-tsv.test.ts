import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../config.js';
import { engineEnvFromProcess } from '../../../test/kit/settings.js';
import { openColumn, type ColumnStore } from '../column.js';
import { ch } from '../sql.js';

// chDB without CLICKHOUSE_URL, the server with it.
let column: ColumnStore;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'column-tsv-test-'));
  const database = `column_tsv_${process.pid}_${Date.now().toString(36)}`;
  column = await openColumn(configFrom({ LOG_LEVEL: 'silent', ...engineEnvFromProcess(), CLICKHOUSE_CLUSTER: '', DATA_DIR: dataDir, CLICKHOUSE_DATABASE: database }).column);
  await column.command(ch`CREATE TABLE tsv_probe (k String, n UInt32, v Nullable(Float64)) ENGINE = MergeTree ORDER BY k`, { name: 'test.create' });
});

afterAll(async () => {
  if (column?.kind === 'clickhouse') await column.command({ sql: `DROP DATABASE IF EXISTS ${column.database}`, params: {} }, { name: 'test.drop' });
  await column?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('ColumnStore TabSeparated text', () => {
  it('inserts chunks of whole lines as they come, from a list or an async source, in the columns named', async () => {
    await column.insertTsv('tsv_probe', ['a\t1\t0.5\n', 'b\t2\t\\N\nc\\tabc\t3\t-1\n'], { name: 'test.insertList' });
    await column.insertTsv(
      'tsv_probe',
      (async function* () {
        yield '4\tcafé ☕\n';
        yield '';
        yield '5\tnull\n';
      })(),
      { name: 'test.insertAsync', columns: ['n', 'k'] },
    );
    const rows = await column.query<{ k: string; n: number; v: number | null }>(ch`SELECT k, n, v FROM tsv_probe ORDER BY n`, { name: 'test.read' });
    expect(rows).toEqual([
      { k: 'a', n: 1, v: 0.5 },
      { k: 'b', n: 2, v: null },
      { k: 'c\tabc', n: 3, v: -1 },
      { k: 'café ☕', n: 4, v: null },
      { k: 'null', n: 5, v: null },
    ]);
  });

  it('reads a result back as text in chunks of whole lines, characters intact', async () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => `k${i}é☕\t${i}\t${i / 4}\n`);
    await column.insertTsv('tsv_probe', [rows.join('')], { name: 'test.insertMany' });
    let text = '';
    let chunks = 0;
    for await (const chunk of column.queryTsv(ch`SELECT k, n FROM tsv_probe WHERE n >= ${10} ORDER BY n`, { name: 'test.readTsv' })) {
      expect(chunk.endsWith('\n')).toBe(true);
      text += chunk;
      chunks++;
    }
    expect(chunks).toBeGreaterThan(1);
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(300_000 - 10);
    expect(lines[0]).toBe('k10é☕\t10');
    expect(lines.at(-1)).toBe('k299999é☕\t299999');
  });

  it('rejects a malformed line with the engine error, naming the row', async () => {
    await expect(column.insertTsv('tsv_probe', ['x\tnot-a-number\t1\n'], { name: 'test.insertBad' })).rejects.toThrow(/row 1/i);
  });

  it('is on one server unless a cluster is configured', () => {
    expect(column.cluster).toBeUndefined();
  });
});
