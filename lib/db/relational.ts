import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { RelationalConfig } from '../config.js';

/** The Drizzle handle every store uses; the same type on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export interface RelationalStore {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Applies the committed migrations; idempotent. */
  migrate(): Promise<void>;
  /** One real round trip. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

export async function openRelational(cfg: RelationalConfig): Promise<RelationalStore> {
  if (cfg.kind === 'postgres') return openPostgres(cfg.url);
  return openPglite(cfg.dataDir);
}

async function openPglite(dataDir: string): Promise<RelationalStore> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (!dataDir.startsWith('memory://')) await mkdir(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent } });
  const db = drizzle({ client, casing: 'snake_case' }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    migrate: () => migrate(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      await db.execute(sql`/* ping */ select 1`);
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<RelationalStore> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not crash the process; the next query reports the failure.
  pool.on('error', () => {});
  const db = drizzle({ client: pool, casing: 'snake_case' }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    migrate: () => migrate(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      await db.execute(sql`/* ping */ select 1`);
    },
    close: () => pool.end(),
  };
}
