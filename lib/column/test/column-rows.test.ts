import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../config.js';
import { rowOf } from '../../db/rows.js';
import { engineEnvFromProcess } from '../../../test/kit/settings.js';
import { openColumn, type ColumnStore } from '../column.js';
import { chCol, columnRows } from '../rows.js';
import { ch } from '../sql.js';

// chDB without CLICKHOUSE_URL, the server with it.
let column: ColumnStore;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'column-rows-test-'));
  const database = `column_rows_${process.pid}_${Date.now().toString(36)}`;
  column = await openColumn(configFrom({ LOG_LEVEL: 'silent', ...engineEnvFromProcess(), CLICKHOUSE_CLUSTER: '', DATA_DIR: dataDir, CLICKHOUSE_DATABASE: database }).column);
});

afterAll(async () => {
  if (column?.kind === 'clickhouse') await column.command({ sql: `DROP DATABASE IF EXISTS ${column.database}`, params: {} }, { name: 'test.drop' });
  await column?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('columnRows', () => {
  it('reads each row through its shape: ids exact as text, counts and flags as numbers and booleans, arrays and nulls kept', async () => {
    const shape = rowOf(
      {
        id: chCol.text,
        n: chCol.int,
        total: chCol.int,
        primary: chCol.flag,
        type: chCol.oneOf(['chemical', 'electrical']),
        q: chCol.float.array(),
        missing: chCol.float.nullable(),
      },
      (r) => ({ ...r, q: r.q.map((x) => x * 2) }),
    );
    const rows = await columnRows(
      column,
      ch`SELECT '720575940621039145' AS id, count() AS n, sum(number) AS total, toUInt8(1) AS primary, 'chemical' AS type, [0.25, 2] AS q,
           CAST(NULL AS Nullable(Float64)) AS missing
         FROM (SELECT number FROM system.numbers LIMIT 3)`,
      { name: 'test.rows' },
      shape,
    );
    expect(rows).toEqual([{ id: '720575940621039145', n: 3, total: 3, primary: true, type: 'chemical', q: [0.5, 4], missing: null }]);
  });

  it('refuses a row that does not match its shape, naming the query and the column', async () => {
    const shape = rowOf({ type: chCol.oneOf(['chemical', 'electrical']) });
    await expect(columnRows(column, ch`SELECT 'gap' AS type`, { name: 'test.badRow' }, shape)).rejects.toThrow(/^test\.badRow returned a row that does not match its shape: type: /);
  });
});
