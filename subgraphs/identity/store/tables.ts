import { boolean, index, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The identity subgraph's Postgres schema; other identity table files add their tables to it. */
export const identity = pgSchema('identity');

export const accountType = identity.enum('account_type', ['REGULAR', 'ACADEMIC', 'SERVICE', 'SUPERUSER']);

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
};

export const accounts = identity.table('accounts', {
  id: uuid().primaryKey(),
  /** As registered: trimmed, domain lower-cased, local part kept. */
  email: text().notNull(),
  /** Fully lower-cased email: the uniqueness and login lookup key. */
  emailKey: text().notNull().unique(),
  /** argon2id PHC string; null for accounts that can only sign in through an external provider. */
  passwordHash: text(),
  displayName: text().notNull(),
  accountType: accountType().notNull().default('REGULAR'),
  verified: boolean().notNull().default(false),
  affiliation: text(),
  orcid: text(),
  bio: text(),
  links: jsonb().$type<string[]>().notNull().default([]),
  scientistTag: text().unique(),
  /** Set by an operator: the account can no longer sign in, and its logins and API tokens have ended. */
  deactivatedAt: timestamp({ withTimezone: true }),
  ...timestamps,
});

/** One family per login; every refresh token issued by rotating from that login belongs to it. */
export const refreshFamilies = identity.table(
  'refresh_families',
  {
    id: uuid().primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    /** logout | reuse | credentials_changed (the account's password or email changed) | account_deactivated */
    revokedReason: text(),
  },
  (t) => [index().on(t.accountId)],
);

/** Refresh tokens by token id (jti); only a SHA-256 of the token is kept. */
export const refreshTokens = identity.table(
  'refresh_tokens',
  {
    id: uuid().primaryKey(),
    familyId: uuid()
      .notNull()
      .references(() => refreshFamilies.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.familyId)],
);
