import { describe, it, expect } from 'vitest';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openRelational } from '../../lib/db/relational.js';

// PGlite on both engine sets: the template is the embedded engine's, whatever the run's servers are.
describe("PGlite's initdb template", () => {
  it('is saved by the first new database, fills the next ones, and is replaced when damaged', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-template-'));
    const template = path.join(dir, 'cache', 'pglite-initdb.tar');
    const openFresh = async (name: string) => {
      const store = await openRelational({ kind: 'pglite', dataDir: path.join(dir, name) }, { pgliteTemplate: template });
      try {
        await store.migrate();
        const rows = (await store.db.execute(sql`select extname from pg_extension order by extname`)) as unknown as { rows: { extname: string }[] };
        return rows.rows.map((r) => r.extname);
      } finally {
        await store.close();
      }
    };
    try {
      const extensions = await openFresh('first');
      expect(extensions).toEqual(expect.arrayContaining(['pg_trgm', 'unaccent']));
      const saved = await stat(template);
      expect(saved.size).toBeGreaterThan(1_000_000);

      expect(await openFresh('second')).toEqual(extensions);
      expect((await stat(template)).mtimeMs).toBe(saved.mtimeMs);

      await writeFile(template, 'not a tar archive');
      expect(await openFresh('third')).toEqual(extensions);
      expect((await stat(template)).size).toBe(saved.size);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
