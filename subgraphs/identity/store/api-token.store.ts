import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import type { AccountType } from '../../../lib/auth/viewer.js';
import type { TokenScope } from '../../../lib/access.js';
import type { ApiTokenRevokeReason } from '../api-token.rules.js';
import { apiTokens } from './api-token.tables.js';
import { accounts } from './tables.js';
import { query, toDate, toDateOrNull } from './db.js';
import { pagedQuery } from '../../../lib/db/paged-query.js';

export interface ApiTokenRecord {
  id: string;
  accountId: string;
  name: string;
  scope: TokenScope;
  prefix: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  revokedAt: Date | null;
  revokedReason: ApiTokenRevokeReason | null;
}

/** A token found by its hash, with its account as stored now. */
export interface PresentedApiToken extends ApiTokenRecord {
  accountType: AccountType;
  verified: boolean;
  deactivatedAt: Date | null;
}

type Row = {
  id: string;
  account_id: string;
  name: string;
  scope: TokenScope;
  prefix: string;
  created_at: string | Date;
  expires_at: string | Date;
  last_used_at: string | Date | null;
  last_used_ip: string | null;
  revoked_at: string | Date | null;
  revoked_reason: ApiTokenRevokeReason | null;
};

const COLUMNS = sql.raw('t.id, t.account_id, t.name, t.scope, t.prefix, t.created_at, t.expires_at, t.last_used_at, t.last_used_ip, t.revoked_at, t.revoked_reason');

const toRecord = (r: Row): ApiTokenRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  createdAt: toDate(r.created_at),
  expiresAt: toDate(r.expires_at),
  lastUsedAt: toDateOrNull(r.last_used_at),
  lastUsedIp: r.last_used_ip,
  revokedAt: toDateOrNull(r.revoked_at),
  revokedReason: r.revoked_reason,
});

export class ApiTokenStore {
  constructor(private readonly db: Db) {}

  /**
   * Inserts a token unless the account already holds `max` live ones (one statement, so concurrent creations
   * cannot pass the cap together by much: each counts what is committed). Undefined when the cap is reached.
   */
  async insert(t: { id: string; accountId: string; name: string; scope: TokenScope; hash: string; prefix: string; createdAt: Date; expiresAt: Date }, max: number): Promise<ApiTokenRecord | undefined> {
    const now = t.createdAt.toISOString();
    const rows = await query<Row>(
      this.db,
      'ApiTokenStore.insert',
      sql`insert into ${apiTokens} as t (id, account_id, name, scope, token_hash, prefix, created_at, expires_at)
        select ${t.id}::uuid, ${t.accountId}::uuid, ${t.name}::text, ${t.scope}::text, ${t.hash}::text, ${t.prefix}::text, ${now}::timestamptz, ${t.expiresAt.toISOString()}::timestamptz
        where (select count(*) from ${apiTokens} where account_id = ${t.accountId} and revoked_at is null and expires_at > ${now}) < ${max}
        returning ${COLUMNS}`,
    );
    return rows[0] && toRecord(rows[0]);
  }

  async findByHash(hash: string): Promise<PresentedApiToken | undefined> {
    const rows = await query<Row & { account_type: AccountType; verified: boolean; deactivated_at: string | Date | null }>(
      this.db,
      'ApiTokenStore.findByHash',
      sql`select ${COLUMNS}, a.account_type, a.verified, a.deactivated_at
        from ${apiTokens} t join ${accounts} a on a.id = t.account_id
        where t.token_hash = ${hash}`,
    );
    const r = rows[0];
    return r && { ...toRecord(r), accountType: r.account_type, verified: r.verified, deactivatedAt: toDateOrNull(r.deactivated_at) };
  }

  async findById(id: string): Promise<ApiTokenRecord | undefined> {
    const rows = await query<Row>(this.db, 'ApiTokenStore.findById', sql`select ${COLUMNS} from ${apiTokens} t where t.id = ${id}`);
    return rows[0] && toRecord(rows[0]);
  }

  /** An account's tokens, newest first; revoked and expired ones only when asked. */
  async list(accountId: string, opts: { includeEnded: boolean; now: Date; limit: number; offset: number }): Promise<{ items: ApiTokenRecord[]; total: number }> {
    const live = opts.includeEnded ? sql`true` : sql`t.revoked_at is null and t.expires_at > ${opts.now.toISOString()}`;
    const page = await pagedQuery<Row>(
      this.db,
      { list: 'ApiTokenStore.list', count: 'ApiTokenStore.count' },
      { columns: COLUMNS, from: sql`${apiTokens} t`, where: sql`t.account_id = ${accountId} and ${live}`, orderBy: sql`t.created_at desc, t.id desc` },
      opts,
    );
    return { items: page.rows.map(toRecord), total: page.total };
  }

  /** Revokes one live token; undefined when it is unknown or already ended by revocation. */
  async revoke(id: string, reason: ApiTokenRevokeReason, now: Date): Promise<ApiTokenRecord | undefined> {
    const rows = await query<Row>(
      this.db,
      'ApiTokenStore.revoke',
      sql`update ${apiTokens} t set revoked_at = ${now.toISOString()}, revoked_reason = ${reason}
        where t.id = ${id} and t.revoked_at is null
        returning ${COLUMNS}`,
    );
    return rows[0] && toRecord(rows[0]);
  }

  /** Ends every live token of an account (its password or email changed, or it was deactivated). */
  async revokeAll(accountId: string, reason: ApiTokenRevokeReason, now: Date): Promise<number> {
    const rows = await query<{ id: string }>(
      this.db,
      'ApiTokenStore.revokeAll',
      sql`update ${apiTokens} set revoked_at = ${now.toISOString()}, revoked_reason = ${reason}
        where account_id = ${accountId} and revoked_at is null
        returning id`,
    );
    return rows.length;
  }

  async recordUse(id: string, at: Date, ip: string | null): Promise<void> {
    await query(
      this.db,
      'ApiTokenStore.recordUse',
      sql`update ${apiTokens} set last_used_at = ${at.toISOString()}, last_used_ip = ${ip} where id = ${id}`,
    );
  }
}
