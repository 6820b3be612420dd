import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import pg from 'pg';
import { systemClock } from '../../lib/clock.js';
import { narrowModes } from '../../lib/data-dir.js';
import { PGLITE_TEMPLATE, openRelational, type RelationalStore } from '../../lib/db/relational.js';
import { packagePath } from '../../lib/package-root.js';
import { SHIPPED_SEED_DIR } from '../../lib/seed-files.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { ontology } from '../../subgraphs/ontology/index.js';
import { eventually } from './eventually.js';

/**
 * Every test app's first start applies the same migrations and loads the same shipped vocabularies: seconds of
 * work with an identical result. The tests start from a copy of that result instead, built once and kept under
 * node_modules/.cache, named by a hash of everything that shapes it (the migrations, the vocabulary files, the code
 * that loads them, the PGlite version), so a change to any of them builds a new one. The service then starts as on
 * its second start: migrations find nothing to do and the vocabularies are present. Nothing per instance (the
 * instance id, accounts, keys) is in it.
 */

const CACHE_DIR = path.dirname(PGLITE_TEMPLATE);
const INPUTS = ['migrations', 'seed/ontology', 'subgraphs/ontology', 'lib/db'];

let key: Promise<string> | undefined;

/** The hash that names the templates of this checkout. */
export function templateKey(): Promise<string> {
  key ??= (async () => {
    const hash = createHash('sha256').update(path.basename(PGLITE_TEMPLATE));
    for (const input of INPUTS) {
      const root = packagePath(input);
      const files = (await readdir(root, { recursive: true })).map(String).sort();
      for (const file of files) {
        if (/(^|\/)test\/|\.test\.ts$/.test(file)) continue;
        const full = path.join(root, file);
        if (!(await stat(full)).isFile()) continue;
        hash.update(`${input}/${file}\0`).update(await readFile(full)).update('\0');
      }
    }
    return hash.digest('hex').slice(0, 16);
  })();
  return key;
}

/** What the service's first start writes into a new relational database, before anything per instance. */
async function migrateAndSeed(relational: RelationalStore): Promise<void> {
  await relational.migrate();
  const deps = { config: { seedDir: SHIPPED_SEED_DIR }, stores: { relational }, clock: systemClock, log: pino({ level: 'silent' }) } as unknown as SubgraphDeps;
  await ontology.onStart(deps);
}

/**
 * Runs `build` once across the processes of a run: the first to take the lock builds, the others wait for
 * `ready()`. A lock older than ten minutes is taken to be left by a killed process.
 */
async function once(lock: string, ready: () => Promise<boolean>, build: () => Promise<void>): Promise<void> {
  await mkdir(path.dirname(lock), { recursive: true });
  await eventually(
    async () => {
      if (await ready()) return true;
      try {
        await mkdir(lock);
      } catch {
        const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
        if (age > 10 * 60_000) await rm(lock, { recursive: true, force: true });
        return false;
      }
      try {
        if (!(await ready())) await build();
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
      return true;
    },
    { timeoutMs: 15 * 60_000, intervalMs: 200, what: `the seeded database template (${lock})` },
  );
}

/** The seeded PGlite data directory of this checkout, built on first use. */
async function seededPgliteDir(): Promise<string> {
  const dir = path.join(CACHE_DIR, `test-pglite-${await templateKey()}`);
  await once(
    `${dir}.lock`,
    async () => existsSync(dir),
    async () => {
      const building = `${dir}.${process.pid}.partial`;
      await rm(building, { recursive: true, force: true });
      const relational = await openRelational({ kind: 'pglite', dataDir: building });
      try {
        await migrateAndSeed(relational);
      } finally {
        await relational.close();
      }
      // Readers see the whole directory or none.
      await rename(building, dir);
      // Templates of other checkouts' inputs are rebuilt when needed; old ones would only take space.
      for (const name of await readdir(CACHE_DIR)) {
        if (/^test-pglite-[0-9a-f]{16}$/.test(name) && name !== path.basename(dir)) {
          const age = Date.now() - (await stat(path.join(CACHE_DIR, name))).mtimeMs;
          if (age > 24 * 3600_000) await rm(path.join(CACHE_DIR, name), { recursive: true, force: true });
        }
      }
    },
  );
  return dir;
}

/**
 * Fills `dataDir` (a PGlite data directory that does not exist yet) with the seeded template. The system's `cp`
 * copies its thousand files for a tenth of the CPU that Node's `fs.cp` spends (which stats, copies and sets modes
 * file by file through the thread pool, about half a second per test app); Node's is the fallback.
 */
export async function copySeededPglite(dataDir: string): Promise<void> {
  const template = await seededPgliteDir();
  const copied = await new Promise<boolean>((resolve) => execFile('cp', ['-R', '-p', template, dataDir], (err) => resolve(!err)));
  if (!copied) {
    await rm(dataDir, { recursive: true, force: true });
    await cp(template, dataDir, { recursive: true });
  }
  // As the service leaves a new data directory: readable by its owner only.
  await narrowModes(dataDir);
}

/**
 * The name of a PostgreSQL database holding the seeded template, built on first use; test databases are created
 * from it (`CREATE DATABASE … TEMPLATE`). An advisory lock lets one process of the run build it.
 */
export async function seededPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `nd_template_${await templateKey()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('neurodata test template'))`);
    const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_partial`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const relational = await openRelational({ kind: 'postgres', url: url.toString() });
      try {
        await migrateAndSeed(relational);
      } finally {
        await relational.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await admin.query(`SELECT pg_advisory_unlock(hashtext('neurodata test template'))`).catch(() => {});
    await admin.end();
  }
}
