import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { col, queryRow, rowOf } from '../../../lib/db/rows.js';
import { loginCodes } from './social-login.tables.js';
import { query } from './db.js';

export interface LoginCode {
  accountId: string;
  provider: string;
  accountCreated: boolean;
}

const LOGIN_CODE = rowOf(
  { account_id: col.text, provider: col.text, account_created: col.bool },
  (r): LoginCode => ({ accountId: r.account_id, provider: r.provider, accountCreated: r.account_created }),
);

export class LoginCodeStore {
  constructor(private readonly db: Db) {}

  async save(codeHash: string, c: LoginCode & { createdAt: Date; expiresAt: Date }): Promise<void> {
    await query(
      this.db,
      'LoginCodeStore.save',
      sql`insert into ${loginCodes} (code_hash, account_id, provider, account_created, created_at, expires_at)
        values (${codeHash}, ${c.accountId}, ${c.provider}, ${c.accountCreated}, ${c.createdAt.toISOString()}, ${c.expiresAt.toISOString()})`,
    );
  }

  /**
   * Marks the code used and returns it, in one statement, only when it is unused and unexpired: of two concurrent
   * exchanges exactly one gets it. Undefined for an unknown, used or expired code.
   */
  async consume(codeHash: string, now: Date): Promise<LoginCode | undefined> {
    return queryRow(
      this.db,
      'LoginCodeStore.consume',
      sql`update ${loginCodes} set consumed_at = ${now.toISOString()}
        where code_hash = ${codeHash} and consumed_at is null and expires_at > ${now.toISOString()}
        returning ${LOGIN_CODE.columns()}`,
      LOGIN_CODE,
    );
  }

  /** Deletes codes that expired before `before`. */
  async purge(before: Date): Promise<void> {
    await query(this.db, 'LoginCodeStore.purge', sql`delete from ${loginCodes} where expires_at < ${before.toISOString()}`);
  }
}
