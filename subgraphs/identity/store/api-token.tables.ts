import { index, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, identity } from './tables.js';

/**
 * Personal API tokens: long-lived credentials for scripts, made by a signed-in person. Only a SHA-256 of the token
 * is kept; `prefix` (its first characters) lets the owner tell tokens apart in a list.
 */
export const apiTokens = identity.table(
  'api_tokens',
  {
    id: uuid().primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** read | compute | write */
    scope: text().notNull(),
    tokenHash: text().notNull().unique(),
    prefix: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lastUsedAt: timestamp({ withTimezone: true }),
    lastUsedIp: text(),
    revokedAt: timestamp({ withTimezone: true }),
    /** owner | superuser | credentials_changed | account_deactivated */
    revokedReason: text(),
  },
  (t) => [index().on(t.accountId)],
);
