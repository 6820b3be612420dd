import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { institutionalVerifications } from './institutional.tables.js';
import { superuserVerifications } from './verification.tables.js';
import { col, queryRows, rowOf } from '../../../lib/db/rows.js';
import { query } from './db.js';

/** The two ways to verification: an institutional login, or a SuperUser's (or the operator's) decision. */
export const VERIFICATION_METHODS = ['institutional', 'superuser'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** How an account became Academic: an institutional login, or a SuperUser's (or the operator's) decision. */
export interface AccountVerification {
  accountId: string;
  method: VerificationMethod;
  /** The SuperUser who verified the account; null for an institutional login and for the operator's command line. */
  verifiedBy: string | null;
  verifiedAt: Date;
  /** Why a SuperUser verified the account; null for an institutional login. */
  reason: string | null;
  /** The institution of an institutional login; null for a SuperUser's verification. */
  institution: string | null;
}

const VERIFICATION = rowOf(
  {
    account_id: col.text,
    method: col.oneOf(VERIFICATION_METHODS),
    verified_by: col.text.nullable(),
    verified_at: col.timestamp,
    reason: col.text.nullable(),
    institution: col.text.nullable(),
  },
  (r): AccountVerification => ({
    accountId: r.account_id,
    method: r.method,
    verifiedBy: r.verified_by,
    verifiedAt: r.verified_at,
    reason: r.reason,
    institution: r.institution,
  }),
);

/** The records of both ways to verification, read together (the identity schema's own tables only). */
export class VerificationStore {
  constructor(private readonly db: Db) {}

  /**
   * The latest verification of each of these accounts (unknown ids and accounts never verified are left out), in
   * one query over both kinds of record.
   */
  async latestOf(accountIds: readonly string[]): Promise<Map<string, AccountVerification>> {
    if (accountIds.length === 0) return new Map();
    const ids = `{${accountIds.join(',')}}`;
    const verifications = await queryRows(
      this.db,
      'VerificationStore.latestOf',
      sql`select distinct on (account_id) ${VERIFICATION.columns()} from (
          select account_id, 'superuser' as method, verified_by, verified_at, reason, null::text as institution
          from ${superuserVerifications} where account_id = any(${ids}::uuid[])
          union all
          select account_id, 'institutional' as method, null::uuid as verified_by, verified_at, null::text as reason, institution
          from ${institutionalVerifications} where account_id = any(${ids}::uuid[])
        ) v
        order by account_id, verified_at desc`,
      VERIFICATION,
    );
    return new Map(verifications.map((v) => [v.accountId, v]));
  }

  /** Records a SuperUser's verification, replacing an earlier one of the account. */
  async recordBySuperUser(v: { accountId: string; verifiedBy: string | null; reason: string; verifiedAt: Date }): Promise<void> {
    await query(
      this.db,
      'VerificationStore.recordBySuperUser',
      sql`insert into ${superuserVerifications} (account_id, verified_by, reason, verified_at)
        values (${v.accountId}, ${v.verifiedBy}, ${v.reason}, ${v.verifiedAt.toISOString()})
        on conflict (account_id) do update set verified_by = excluded.verified_by, reason = excluded.reason, verified_at = excluded.verified_at`,
    );
  }

  /**
   * Deletes every verification record of the account (both kinds), so that the institutional identity that had
   * verified it may verify it, or another account, again.
   */
  async deleteAll(accountId: string): Promise<void> {
    await query(
      this.db,
      'VerificationStore.deleteAll.superuser',
      sql`delete from ${superuserVerifications} where account_id = ${accountId}`,
    );
    await query(
      this.db,
      'VerificationStore.deleteAll.institutional',
      sql`delete from ${institutionalVerifications} where account_id = ${accountId}`,
    );
  }
}
