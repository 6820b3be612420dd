import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import type { AccountType } from '../../../lib/auth/viewer.js';
import { accounts } from './tables.js';
import { query, toDate, toDateOrNull } from './db.js';

/** An account as the services see it; the password hash stays in the store. */
export interface Account {
  id: string;
  email: string;
  displayName: string;
  accountType: AccountType;
  verified: boolean;
  affiliation: string | null;
  orcid: string | null;
  bio: string | null;
  links: string[];
  scientistTag: string | null;
  /** Set when an operator deactivated the account. */
  deactivatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewAccount {
  id: string;
  email: string;
  emailKey: string;
  passwordHash: string | null;
  displayName: string;
  accountType: AccountType;
  verified: boolean;
  now: Date;
}

export interface ProfilePatch {
  email?: string;
  emailKey?: string;
  displayName?: string;
  affiliation?: string | null;
  orcid?: string | null;
  bio?: string | null;
  links?: string[];
}

type AccountRow = {
  id: string;
  email: string;
  display_name: string;
  account_type: AccountType;
  verified: boolean;
  affiliation: string | null;
  orcid: string | null;
  bio: string | null;
  links: string[] | string;
  scientist_tag: string | null;
  deactivated_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
};

const COLUMNS = sql.raw('id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at');

function toAccount(r: AccountRow): Account {
  return {
    id: r.id,
    email: r.email,
    displayName: r.display_name,
    accountType: r.account_type,
    verified: r.verified,
    affiliation: r.affiliation,
    orcid: r.orcid,
    bio: r.bio,
    links: typeof r.links === 'string' ? (JSON.parse(r.links) as string[]) : (r.links ?? []),
    scientistTag: r.scientist_tag,
    deactivatedAt: toDateOrNull(r.deactivated_at),
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

const emailTaken = (constraint: string) =>
  constraint.includes('scientist') ? 'that scientist tag is taken' : 'an account with this email already exists';

export class AccountStore {
  constructor(private readonly db: Db) {}

  /** Inserts an account; a taken email key becomes Conflict. */
  async insert(a: NewAccount): Promise<Account> {
    const rows = await query<AccountRow>(
      this.db,
      'AccountStore.insert',
      sql`insert into ${accounts} (id, email, email_key, password_hash, display_name, account_type, verified, created_at, updated_at)
        values (${a.id}, ${a.email}, ${a.emailKey}, ${a.passwordHash}, ${a.displayName}, ${a.accountType}, ${a.verified}, ${a.now.toISOString()}, ${a.now.toISOString()})
        returning ${COLUMNS}`,
      emailTaken,
    );
    return toAccount(rows[0]);
  }

  async findById(id: string): Promise<Account | undefined> {
    const rows = await query<AccountRow>(this.db, 'AccountStore.findById', sql`select ${COLUMNS} from ${accounts} where id = ${id}`);
    return rows[0] && toAccount(rows[0]);
  }

  /** The accounts among `ids` (unknown ids are left out), in one query. */
  async findByIds(ids: readonly string[]): Promise<Account[]> {
    if (ids.length === 0) return [];
    const rows = await query<AccountRow>(
      this.db,
      'AccountStore.findByIds',
      sql`select ${COLUMNS} from ${accounts} where id = any(${`{${ids.join(',')}}`}::uuid[])`,
    );
    return rows.map(toAccount);
  }

  /**
   * A page of accounts, newest first, optionally only those whose email contains `emailContains` (case-insensitive,
   * taken literally: `%` and `_` match themselves), and how many match in all.
   */
  async list(opts: { emailContains?: string; limit: number; offset: number }): Promise<{ items: Account[]; total: number }> {
    const needle = opts.emailContains?.trim().toLowerCase();
    const where = needle ? sql`where email_key like ${`%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``;
    const rows = await query<AccountRow & { total: string | number }>(
      this.db,
      'AccountStore.list',
      sql`select ${COLUMNS}, count(*) over () as total from ${accounts} ${where}
        order by created_at desc, id limit ${opts.limit} offset ${opts.offset}`,
    );
    if (rows.length === 0 && opts.offset > 0) {
      const counted = await query<{ total: string | number }>(this.db, 'AccountStore.list.count', sql`/* AccountStore.list.count */ select count(*) as total from ${accounts} ${where}`);
      return { items: [], total: Number(counted[0]?.total ?? 0) };
    }
    return { items: rows.map(toAccount), total: Number(rows[0]?.total ?? 0) };
  }

  /** The account with this email key and its password hash, for login only. */
  async findCredentials(emailKey: string): Promise<{ account: Account; passwordHash: string | null } | undefined> {
    const rows = await query<AccountRow & { password_hash: string | null }>(
      this.db,
      'AccountStore.findCredentials',
      sql`select ${COLUMNS}, password_hash from ${accounts} where email_key = ${emailKey}`,
    );
    return rows[0] && { account: toAccount(rows[0]), passwordHash: rows[0].password_hash };
  }

  async passwordHash(id: string): Promise<string | null | undefined> {
    const rows = await query<{ password_hash: string | null }>(
      this.db,
      'AccountStore.passwordHash',
      sql`select password_hash from ${accounts} where id = ${id}`,
    );
    return rows[0]?.password_hash;
  }

  /** Sets or replaces the password hash. Returns false when the account is absent. */
  async setPasswordHash(id: string, passwordHash: string, now: Date): Promise<boolean> {
    const rows = await query<{ id: string }>(
      this.db,
      'AccountStore.setPasswordHash',
      sql`update ${accounts} set password_hash = ${passwordHash}, updated_at = ${now.toISOString()} where id = ${id} returning id`,
    );
    return rows.length > 0;
  }

  /**
   * Changes the account type only when the current type is one of `from`, in one statement, so two concurrent
   * changes cannot both apply. Returns undefined when the account is absent or in another type.
   */
  async changeType(id: string, from: AccountType[], to: AccountType, verified: boolean, now: Date): Promise<Account | undefined> {
    const fromList = sql.join(
      from.map((t) => sql`${t}`),
      sql`, `,
    );
    const rows = await query<AccountRow>(
      this.db,
      'AccountStore.changeType',
      sql`update ${accounts} set account_type = ${to}, verified = ${verified}, updated_at = ${now.toISOString()}
        where id = ${id} and account_type in (${fromList})
        returning ${COLUMNS}`,
    );
    return rows[0] && toAccount(rows[0]);
  }

  /** Applies the given profile fields; a taken email becomes Conflict. */
  async updateProfile(id: string, p: ProfilePatch, now: Date): Promise<Account | undefined> {
    const sets = [sql`updated_at = ${now.toISOString()}`];
    if (p.email !== undefined) sets.push(sql`email = ${p.email}`, sql`email_key = ${p.emailKey}`);
    if (p.displayName !== undefined) sets.push(sql`display_name = ${p.displayName}`);
    if (p.affiliation !== undefined) sets.push(sql`affiliation = ${p.affiliation}`);
    if (p.orcid !== undefined) sets.push(sql`orcid = ${p.orcid}`);
    if (p.bio !== undefined) sets.push(sql`bio = ${p.bio}`);
    if (p.links !== undefined) sets.push(sql`links = ${JSON.stringify(p.links)}::jsonb`);
    const rows = await query<AccountRow>(
      this.db,
      'AccountStore.updateProfile',
      sql`update ${accounts} set ${sql.join(sets, sql`, `)} where id = ${id} returning ${COLUMNS}`,
      emailTaken,
    );
    return rows[0] && toAccount(rows[0]);
  }

  /**
   * Sets the scientist tag only if the account has none yet. Returns the account when this call set it, undefined
   * when a tag was already there; a tag held by another account becomes Conflict.
   */
  async setScientistTagOnce(id: string, tag: string, now: Date): Promise<Account | undefined> {
    const rows = await query<AccountRow>(
      this.db,
      'AccountStore.setScientistTagOnce',
      sql`update ${accounts} set scientist_tag = ${tag}, updated_at = ${now.toISOString()}
        where id = ${id} and scientist_tag is null
        returning ${COLUMNS}`,
      emailTaken,
    );
    return rows[0] && toAccount(rows[0]);
  }

  /** Marks the account deactivated (once); undefined when there is no such account. */
  async deactivate(id: string, now: Date): Promise<Account | undefined> {
    const rows = await query<AccountRow>(
      this.db,
      'AccountStore.deactivate',
      sql`update ${accounts} set deactivated_at = coalesce(deactivated_at, ${now.toISOString()}::timestamptz), updated_at = ${now.toISOString()}
        where id = ${id} returning ${COLUMNS}`,
    );
    return rows[0] && toAccount(rows[0]);
  }
}
