import { boolean, index, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, identity } from './tables.js';

/**
 * Single-use codes a completed sign-in (redirect mode) hands to the front end instead of tokens, so tokens never
 * travel in a URL. Only a SHA-256 of the code is stored; the token pair is issued when the code is exchanged.
 */
export const loginCodes = identity.table(
  'login_codes',
  {
    codeHash: text().primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    /** Whether the sign-in that produced the code created the account. */
    accountCreated: boolean().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    consumedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.expiresAt)],
);
