import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../lib/db/relational.js';
import type { AccountType } from '../../../lib/auth/viewer.js';
import { TOKEN_SCOPES, type TokenScope } from '../../../lib/access.js';
import { API_TOKEN_REVOKE_REASONS, type ApiTokenRevokeReason } from '../api-token.rules.js';
import { apiTokens } from './api-token.tables.js';
import { accounts, accountType } from './tables.js';
import { query } from './db.js';
import { col, queryRow, rowOf } from '../../../lib/db/rows.js';
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

const TOKEN_FIELDS = {
  id: col.text,
  account_id: col.text,
  name: col.text,
  scope: col.oneOf(TOKEN_SCOPES),
  prefix: col.text,
  created_at: col.timestamp,
  expires_at: col.timestamp,
  last_used_at: col.timestamp.nullable(),
  last_used_ip: col.text.nullable(),
  revoked_at: col.timestamp.nullable(),
  revoked_reason: col.oneOf(API_TOKEN_REVOKE_REASONS).nullable(),
};

const recordOf = (r: z.output<z.ZodObject<typeof TOKEN_FIELDS>>): ApiTokenRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  lastUsedIp: r.last_used_ip,
  revokedAt: r.revoked_at,
  revokedReason: r.revoked_reason,
});

const TOKEN = rowOf(TOKEN_FIELDS, recordOf);
/** The token's columns, from the table aliased `t`. */
const COLUMNS = TOKEN.columns('t');
/** A token with its account's standing, from `t` joined with its account `a`. */
const PRESENTED = rowOf(
  { ...TOKEN_FIELDS, account_type: col.oneOf(accountType.enumValues), verified: col.bool, deactivated_at: col.timestamp.nullable() },
  (r): PresentedApiToken => ({ ...recordOf(r), accountType: r.account_type, verified: r.verified, deactivatedAt: r.deactivated_at }),
);

export class ApiTokenStore {
  constructor(private readonly db: Db) {}

  /**
   * Inserts a token unless the account already holds `max` live ones (one statement, so concurrent creations
   * cannot pass the cap together by much: each counts what is committed). Undefined when the cap is reached.
   */
  async insert(t: { id: string; accountId: string; name: string; scope: TokenScope; hash: string; prefix: string; createdAt: Date; expiresAt: Date }, max: number): Promise<ApiTokenRecord | undefined> {
    const now = t.createdAt.toISOString();
    return queryRow(
      this.db,
      'ApiTokenStore.insert',
      sql`insert into ${apiTokens} as t (id, account_id, name, scope, token_hash, prefix, created_at, expires_at)
        select ${t.id}::uuid, ${t.accountId}::uuid, ${t.name}::text, ${t.scope}::text, ${t.hash}::text, ${t.prefix}::text, ${now}::timestamptz, ${t.expiresAt.toISOString()}::timestamptz
        where (select count(*) from ${apiTokens} where account_id = ${t.accountId} and revoked_at is null and expires_at > ${now}) < ${max}
        returning ${COLUMNS}`,
      TOKEN,
    );
  }

  async findByHash(hash: string): Promise<PresentedApiToken | undefined> {
    return queryRow(
      this.db,
      'ApiTokenStore.findByHash',
      sql`select ${COLUMNS}, a.account_type, a.verified, a.deactivated_at
        from ${apiTokens} t join ${accounts} a on a.id = t.account_id
        where t.token_hash = ${hash}`,
      PRESENTED,
    );
  }

  async findById(id: string): Promise<ApiTokenRecord | undefined> {
    return queryRow(this.db, 'ApiTokenStore.findById', sql`select ${COLUMNS} from ${apiTokens} t where t.id = ${id}`, TOKEN);
  }

  /** An account's tokens, newest first; revoked and expired ones only when asked. */
  async list(accountId: string, opts: { includeEnded: boolean; now: Date; limit: number; offset: number }): Promise<{ items: ApiTokenRecord[]; total: number }> {
    const live = opts.includeEnded ? sql`true` : sql`t.revoked_at is null and t.expires_at > ${opts.now.toISOString()}`;
    const page = await pagedQuery(
      this.db,
      { list: 'ApiTokenStore.list', count: 'ApiTokenStore.count' },
      { shape: TOKEN, columns: COLUMNS, from: sql`${apiTokens} t`, where: sql`t.account_id = ${accountId} and ${live}`, orderBy: sql`t.created_at desc, t.id desc` },
      opts,
    );
    return { items: page.rows, total: page.total };
  }

  /** Revokes one live token; undefined when it is unknown or already ended by revocation. */
  async revoke(id: string, reason: ApiTokenRevokeReason, now: Date): Promise<ApiTokenRecord | undefined> {
    return queryRow(
      this.db,
      'ApiTokenStore.revoke',
      sql`update ${apiTokens} t set revoked_at = ${now.toISOString()}, revoked_reason = ${reason}
        where t.id = ${id} and t.revoked_at is null
        returning ${COLUMNS}`,
      TOKEN,
    );
  }

  /** Ends every live token of an account (its password or email changed, or it was deactivated). */
  async revokeAll(accountId: string, reason: ApiTokenRevokeReason, now: Date): Promise<number> {
    const rows = await query(
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
