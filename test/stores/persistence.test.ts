import { describe, it, expect } from 'vitest';
import { createTestEngines, startTestApp } from '../kit/app.js';
import { ch } from '../../lib/column/sql.js';
import { ensureInstanceId } from '../../lib/db/instance.js';

describe('stores', () => {
  it('keep what was written through each of them across a restart', async () => {
    const engines = await createTestEngines();
    try {
      const first = await startTestApp({}, { engines });
      const { relational, column, objects } = first.app.stores;
      const instanceId = await ensureInstanceId(relational.db);
      await column.command(ch`CREATE TABLE IF NOT EXISTS persistence_probe (k String, v Float64) ENGINE = MergeTree ORDER BY k`, { name: 'createProbe' });
      await column.insert('persistence_probe', [{ k: 'soma', v: 12.5 }, { k: "it's", v: -1 }], { name: 'insertProbe' });
      await objects.put('probe/morphology.swc', '1 1 0 0 0 5 -1\n', 'text/plain');
      await first.stop();

      const second = await startTestApp({}, { engines });
      try {
        expect(await ensureInstanceId(second.app.stores.relational.db)).toBe(instanceId);
        const rows = await second.app.stores.column.query<{ k: string; v: number }>(ch`SELECT k, v FROM persistence_probe ORDER BY k`, { name: 'readProbe' });
        expect(rows).toEqual([
          { k: "it's", v: -1 },
          { k: 'soma', v: 12.5 },
        ]);
        const obj = await second.app.stores.objects.get('probe/morphology.swc');
        expect(obj?.body.toString()).toBe('1 1 0 0 0 5 -1\n');
        expect(obj?.contentType).toBe('text/plain');
        expect(await second.app.stores.objects.get('probe/missing')).toBeNull();
      } finally {
        await second.stop();
      }
    } finally {
      await engines.drop();
    }
  });
});
