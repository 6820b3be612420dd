import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../lib/db/relational.js';
import type { AccountType } from '../../../lib/auth/viewer.js';
import { col, queryRow, queryRows, rowOf } from '../../../lib/db/rows.js';
import { pagedQuery } from '../../../lib/db/paged-query.js';
import { accounts, accountType } from './tables.js';
import { query } from './db.js';

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

const ACCOUNT_FIELDS = {
  id: col.text,
  email: col.text,
  display_name: col.text,
  account_type: col.oneOf(accountType.enumValues),
  verified: col.bool,
  affiliation: col.text.nullable(),
  orcid: col.text.nullable(),
  bio: col.text.nullable(),
  links: col.json(z.array(z.string()).nullable()),
  scientist_tag: col.text.nullable(),
  deactivated_at: col.timestamp.nullable(),
  created_at: col.timestamp,
  updated_at: col.timestamp,
};

function accountOf(r: z.output<z.ZodObject<typeof ACCOUNT_FIELDS>>): Account {
  return {
    id: r.id,
    email: r.email,
    displayName: r.display_name,
    accountType: r.account_type,
    verified: r.verified,
    affiliation: r.affiliation,
    orcid: r.orcid,
    bio: r.bio,
    links: r.links ?? [],
    scientistTag: r.scientist_tag,
    deactivatedAt: r.deactivated_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const ACCOUNT = rowOf(ACCOUNT_FIELDS, accountOf);
const COLUMNS = ACCOUNT.columns();
/** An account with its password hash, for login only. */
const CREDENTIALS = rowOf({ ...ACCOUNT_FIELDS, password_hash: col.text.nullable() }, (r) => ({ account: accountOf(r), passwordHash: r.password_hash }));
const PASSWORD_HASH = rowOf({ password_hash: col.text.nullable() }, (r) => r.password_hash);

const emailTaken = (constraint: string) =>
  constraint.includes('scientist') ? 'that scientist tag is taken' : 'an account with this email already exists';

export class AccountStore {
  constructor(private readonly db: Db) {}

  /** Inserts an account; a taken email key becomes Conflict. */
  async insert(a: NewAccount): Promise<Account> {
    const [account] = await queryRows(
      this.db,
      'AccountStore.insert',
      sql`insert into ${accounts} (id, email, email_key, password_hash, display_name, account_type, verified, created_at, updated_at)
        values (${a.id}, ${a.email}, ${a.emailKey}, ${a.passwordHash}, ${a.displayName}, ${a.accountType}, ${a.verified}, ${a.now.toISOString()}, ${a.now.toISOString()})
        returning ${COLUMNS}`,
      ACCOUNT,
      emailTaken,
    );
    return account;
  }

  async findById(id: string): Promise<Account | undefined> {
    return queryRow(this.db, 'AccountStore.findById', sql`select ${COLUMNS} from ${accounts} where id = ${id}`, ACCOUNT);
  }

  /** The accounts among `ids` (unknown ids are left out), in one query. */
  async findByIds(ids: readonly string[]): Promise<Account[]> {
    if (ids.length === 0) return [];
    return queryRows(this.db, 'AccountStore.findByIds', sql`select ${COLUMNS} from ${accounts} where id = any(${`{${ids.join(',')}}`}::uuid[])`, ACCOUNT);
  }

  /**
   * A page of accounts, newest first, optionally only those whose email contains `emailContains` (case-insensitive,
   * taken literally: `%` and `_` match themselves), and how many match in all.
   */
  async list(opts: { emailContains?: string; limit: number; offset: number }): Promise<{ items: Account[]; total: number }> {
    const needle = opts.emailContains?.trim().toLowerCase();
    const where = needle ? sql`email_key like ${`%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql`true`;
    const { rows, total } = await pagedQuery(
      this.db,
      { list: 'AccountStore.list', count: 'AccountStore.list.count' },
      { shape: ACCOUNT, from: sql`${accounts}`, where, orderBy: sql`created_at desc, id` },
      opts,
    );
    return { items: rows, total };
  }

  /** The account with this email key and its password hash, for login only. */
  async findCredentials(emailKey: string): Promise<{ account: Account; passwordHash: string | null } | undefined> {
    return queryRow(this.db, 'AccountStore.findCredentials', sql`select ${CREDENTIALS.columns()} from ${accounts} where email_key = ${emailKey}`, CREDENTIALS);
  }

  async passwordHash(id: string): Promise<string | null | undefined> {
    return queryRow(this.db, 'AccountStore.passwordHash', sql`select ${PASSWORD_HASH.columns()} from ${accounts} where id = ${id}`, PASSWORD_HASH);
  }

  /** Sets or replaces the password hash. Returns false when the account is absent. */
  async setPasswordHash(id: string, passwordHash: string, now: Date): Promise<boolean> {
    const rows = await query(
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
    return queryRow(
      this.db,
      'AccountStore.changeType',
      sql`update ${accounts} set account_type = ${to}, verified = ${verified}, updated_at = ${now.toISOString()}
        where id = ${id} and account_type in (${fromList})
        returning ${COLUMNS}`,
      ACCOUNT,
    );
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
    return queryRow(
      this.db,
      'AccountStore.updateProfile',
      sql`update ${accounts} set ${sql.join(sets, sql`, `)} where id = ${id} returning ${COLUMNS}`,
      ACCOUNT,
      emailTaken,
    );
  }

  /**
   * Sets the scientist tag only if the account has none yet. Returns the account when this call set it, undefined
   * when a tag was already there; a tag held by another account becomes Conflict.
   */
  async setScientistTagOnce(id: string, tag: string, now: Date): Promise<Account | undefined> {
    return queryRow(
      this.db,
      'AccountStore.setScientistTagOnce',
      sql`update ${accounts} set scientist_tag = ${tag}, updated_at = ${now.toISOString()}
        where id = ${id} and scientist_tag is null
        returning ${COLUMNS}`,
      ACCOUNT,
      emailTaken,
    );
  }

  /** Marks the account deactivated (once); undefined when there is no such account. */
  async deactivate(id: string, now: Date): Promise<Account | undefined> {
    return queryRow(
      this.db,
      'AccountStore.deactivate',
      sql`update ${accounts} set deactivated_at = coalesce(deactivated_at, ${now.toISOString()}::timestamptz), updated_at = ${now.toISOString()}
        where id = ${id} returning ${COLUMNS}`,
      ACCOUNT,
    );
  }
}
