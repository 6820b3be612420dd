import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { col, queryRow, rowOf } from '../../../lib/db/rows.js';
import { refreshFamilies, refreshTokens } from './tables.js';
import { query } from './db.js';

export interface NewRefreshToken {
  id: string;
  familyId: string;
  accountId: string;
  tokenHash: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Why a refresh token could not be consumed. */
export type ConsumeFailure = 'unknown' | 'reused' | 'revoked' | 'expired';

export interface StoredRefreshToken {
  id: string;
  familyId: string;
  accountId: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  familyRevokedAt: Date | null;
  familyRevokedReason: RevokeReason | null;
}

/** Why a family was revoked: logged out, a refresh token replayed, the account's password or email changed, or it was deactivated. */
export const REVOKE_REASONS = ['logout', 'reuse', 'credentials_changed', 'account_deactivated'] as const;
export type RevokeReason = (typeof REVOKE_REASONS)[number];

const CONSUMED = rowOf({ family_id: col.text, account_id: col.text }, (r) => ({ familyId: r.family_id, accountId: r.account_id }));

const STORED_TOKEN = rowOf(
  {
    id: col.text,
    family_id: col.text,
    account_id: col.text,
    token_hash: col.text,
    expires_at: col.timestamp,
    used_at: col.timestamp.nullable(),
    revoked_at: col.timestamp.nullable(),
    family_revoked_at: col.timestamp.nullable(),
    family_revoked_reason: col.oneOf(REVOKE_REASONS).nullable(),
  },
  (r): StoredRefreshToken => ({
    id: r.id,
    familyId: r.family_id,
    accountId: r.account_id,
    tokenHash: r.token_hash,
    expiresAt: r.expires_at,
    usedAt: r.used_at,
    revokedAt: r.revoked_at,
    familyRevokedAt: r.family_revoked_at,
    familyRevokedReason: r.family_revoked_reason,
  }),
);

const REVOKED = rowOf({ revoked: col.int }, (r) => r.revoked);

export class SessionStore {
  constructor(private readonly db: Db) {}

  /** Starts a family (one per login) with its first refresh token. */
  async startFamily(familyId: string, first: NewRefreshToken): Promise<void> {
    await query(
      this.db,
      'SessionStore.startFamily',
      sql`with family as (
          insert into ${refreshFamilies} (id, account_id, created_at) values (${familyId}, ${first.accountId}, ${first.issuedAt.toISOString()})
          returning id
        )
        insert into ${refreshTokens} (id, family_id, account_id, token_hash, issued_at, expires_at)
        select ${first.id}::uuid, family.id, ${first.accountId}::uuid, ${first.tokenHash}::text, ${first.issuedAt.toISOString()}::timestamptz, ${first.expiresAt.toISOString()}::timestamptz from family`,
    );
  }

  async insertToken(t: NewRefreshToken): Promise<void> {
    await query(
      this.db,
      'SessionStore.insertToken',
      sql`insert into ${refreshTokens} (id, family_id, account_id, token_hash, issued_at, expires_at)
        values (${t.id}, ${t.familyId}, ${t.accountId}, ${t.tokenHash}, ${t.issuedAt.toISOString()}, ${t.expiresAt.toISOString()})`,
    );
  }

  /**
   * Marks a refresh token used if, and only if, it is unused, unrevoked, unexpired and its family is live: one
   * conditional UPDATE, so of two concurrent refreshes with the same token exactly one gets the row back.
   */
  async consume(id: string, tokenHash: string, now: Date): Promise<{ familyId: string; accountId: string } | undefined> {
    return queryRow(
      this.db,
      'SessionStore.consume',
      sql`update ${refreshTokens} t set used_at = ${now.toISOString()}
        from ${refreshFamilies} f
        where t.id = ${id} and t.token_hash = ${tokenHash}
          and t.used_at is null and t.revoked_at is null and t.expires_at > ${now.toISOString()}
          and f.id = t.family_id and f.revoked_at is null
        returning ${CONSUMED.columns('t')}`,
      CONSUMED,
    );
  }

  async findToken(id: string): Promise<StoredRefreshToken | undefined> {
    return queryRow(
      this.db,
      'SessionStore.findToken',
      sql`select t.id, t.family_id, t.account_id, t.token_hash, t.expires_at, t.used_at, t.revoked_at, f.revoked_at as family_revoked_at, f.revoked_reason as family_revoked_reason
        from ${refreshTokens} t join ${refreshFamilies} f on f.id = t.family_id
        where t.id = ${id}`,
      STORED_TOKEN,
    );
  }

  /** Revokes a family and every token in it; the first reason recorded is kept. */
  async revokeFamily(familyId: string, reason: RevokeReason, now: Date): Promise<void> {
    await query(
      this.db,
      'SessionStore.revokeFamily',
      sql`with family as (
          update ${refreshFamilies} set revoked_at = coalesce(revoked_at, ${now.toISOString()}), revoked_reason = coalesce(revoked_reason, ${reason})
          where id = ${familyId}
          returning id
        )
        update ${refreshTokens} set revoked_at = ${now.toISOString()}
        where family_id in (select id from family) and revoked_at is null`,
    );
  }

  /**
   * Revokes every live family of the account (and their tokens) except `keepFamilyId`, in one statement. Returns
   * how many families were revoked.
   */
  async revokeAccountFamilies(accountId: string, keepFamilyId: string | null, reason: RevokeReason, now: Date): Promise<number> {
    const revoked = await queryRow(
      this.db,
      'SessionStore.revokeAccountFamilies',
      sql`with families as (
          update ${refreshFamilies} set revoked_at = ${now.toISOString()}, revoked_reason = ${reason}
          where account_id = ${accountId} and revoked_at is null and (${keepFamilyId}::uuid is null or id <> ${keepFamilyId}::uuid)
          returning id
        ), tokens as (
          update ${refreshTokens} set revoked_at = ${now.toISOString()}
          where family_id in (select id from families) and revoked_at is null
        )
        select count(*) as revoked from families`,
      REVOKED,
    );
    return revoked ?? 0;
  }
}
