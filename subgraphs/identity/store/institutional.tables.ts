import { index, jsonb, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { accounts, identity } from './tables.js';

/**
 * Pending authorization requests to external login providers, one row per started flow. Kept in the relational
 * store because the callback may reach another process than the one that started the flow. Only a SHA-256 of the
 * `state` value is stored; the row is consumed by the first callback that presents it.
 */
export const oidcStates = identity.table(
  'oidc_states',
  {
    stateHash: text().primaryKey(),
    /** institutional | orcid | social | gitlab | github */
    provider: text().notNull(),
    /** verify | link | login */
    purpose: text().notNull(),
    /** The account the flow was started for; null for a sign-in, whose account is found at the callback. */
    accountId: uuid().references(() => accounts.id, { onDelete: 'cascade' }),
    /** Sign-ins only: redirect (login_code to LOGIN_RETURN_URL) or json (token pair in the callback's answer). */
    mode: text(),
    /** Sign-ins only: SHA-256 of the value the starting browser holds in a cookie; the callback must present it. */
    bindingHash: text(),
    codeVerifier: text().notNull(),
    nonce: text().notNull(),
    redirectUri: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    consumedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.expiresAt)],
);

/**
 * The institutional identity that verified an account as academic (spec 5.8). One institutional identity
 * verifies at most one account, so a single institutional login cannot unlock any number of accounts.
 */
export const institutionalVerifications = identity.table(
  'institutional_verifications',
  {
    accountId: uuid()
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    subject: text().notNull(),
    institution: text(),
    email: text(),
    emailDomain: text(),
    /** eduPersonScopedAffiliation values, e.g. `faculty@example.edu`. */
    affiliations: jsonb().$type<string[]>().notNull().default([]),
    verifiedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [unique().on(t.issuer, t.subject)],
);

/** External identities linked to an account, e.g. an ORCID iD; one per provider and account, one account per identity. */
export const linkedIdentities = identity.table(
  'linked_identities',
  {
    id: uuid().primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    issuer: text().notNull(),
    subject: text().notNull(),
    /** A display name the provider returned (not used for anything but showing the link). */
    name: text(),
    /** The login or preferred username at the provider, e.g. a code-hosting handle. */
    username: text(),
    /** The provider-verified email when the identity was linked, for showing the link only. */
    email: text(),
    linkedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [unique().on(t.provider, t.issuer, t.subject), unique().on(t.accountId, t.provider)],
);
