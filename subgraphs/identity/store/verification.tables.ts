import { text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, identity } from './tables.js';

/**
 * A SuperUser's (or an operator's) decision that an account is Academic, as DANDI approves accounts by hand: the
 * second way to verification beside an institutional login (institutional_verifications). Deleted when the
 * verification is taken back.
 */
export const superuserVerifications = identity.table('superuser_verifications', {
  accountId: uuid()
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  /** The SuperUser who verified the account; null for the operator's command line (`npm run admin`) or a SuperUser since deleted. */
  verifiedBy: uuid().references(() => accounts.id, { onDelete: 'set null' }),
  reason: text().notNull(),
  verifiedAt: timestamp({ withTimezone: true }).notNull(),
});
