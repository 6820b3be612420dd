import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../lib/db/relational.js';

/**
 * A relational Db that records the SQL it is given instead of running it, for a store's SQL snapshot
 * (`store/__sql__/<store>.sql`, written with `toMatchFileSnapshot`). Every statement answers `rows` (none by
 * default), so a store method that reads back what it wrote needs rows of its shape.
 */
export function sqlRecorder(rows: unknown[] = []): { db: Db; statements: string[] } {
  const dialect = new PgDialect({ casing: 'snake_case' });
  const statements: string[] = [];
  const db = {
    execute: async (q: SQL) => {
      statements.push(dialect.sqlToQuery(q).sql.replace(/[ \t]+$/gm, ''));
      return { rows };
    },
    transaction: async <T>(fn: (tx: Db) => Promise<T>) => fn(db),
  } as unknown as Db;
  return { db, statements };
}

/** The statements as one snapshot file's text. */
export const snapshotText = (statements: string[]): string => statements.join(';\n\n') + ';\n';

/** A store built on a recorder: the statements its methods send, answered with `rows`. */
export function recordedStore<S>(make: (db: Db) => S, rows: unknown[] = []): { store: S; statements: string[] } {
  const { db, statements } = sqlRecorder(rows);
  return { store: make(db), statements };
}

/** The name each statement carries in its leading comment (`/* Store.method *\/`). */
export const statementNames = (statements: string[]): (string | undefined)[] => statements.map((s) => s.match(/^\/\* ([\w.]+) \*\//)?.[1]);
