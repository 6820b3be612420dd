import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type EnvName } from '../../lib/config.js';
import { engineEnvFromProcess } from './settings.js';
import { copySeededPglite, seededPostgresTemplate } from './relational-template.js';

export interface TestEngines {
  env: Partial<Record<EnvName, string>>;
  dataDir: string;
  drop(): Promise<void>;
}

let counter = 0;

/**
 * Fresh engines for one test file: a temporary data directory (PGlite, chDB, objects) and, in server mode, a new
 * PostgreSQL database and a new ClickHouse database, so test files can run side by side.
 *
 * The relational database starts as the service leaves it after its first start's migrations and ontology seed
 * (relational-template.ts), which every test app would otherwise repeat; `seeded: false` gives an empty one, for
 * tests of that first start.
 */
export async function createTestEngines(opts: { seeded?: boolean } = {}): Promise<TestEngines> {
  const seeded = opts.seeded ?? true;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-test-'));
  const env: Partial<Record<EnvName, string>> = { ...engineEnvFromProcess(), DATA_DIR: dataDir };
  const suffix = `${process.pid}_${Date.now().toString(36)}_${counter++}`;
  let dropDb: (() => Promise<void>) | undefined;
  if (env.DATABASE_URL) {
    const adminUrl = env.DATABASE_URL;
    const dbName = `nd_test_${suffix}`;
    const template = seeded ? await seededPostgresTemplate(adminUrl) : undefined;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}${template ? ` TEMPLATE ${template}` : ''}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    };
  } else if (seeded) {
    await copySeededPglite(path.join(dataDir, 'pglite'));
  }
  if (env.CLICKHOUSE_URL) env.CLICKHOUSE_DATABASE = `nd_test_${suffix}`;
  return {
    env,
    dataDir,
    async drop() {
      await dropDb?.();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
