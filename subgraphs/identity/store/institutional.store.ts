import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../lib/db/relational.js';
import { col, queryRow, queryRows, rowOf } from '../../../lib/db/rows.js';
import { institutionalVerifications, linkedIdentities, oidcStates } from './institutional.tables.js';
import { query } from './db.js';

export const FLOW_PURPOSES = ['verify', 'link', 'login'] as const;
export type FlowPurpose = (typeof FLOW_PURPOSES)[number];
/** How a sign-in hands its result to the client: a login_code in a redirect, or the token pair as JSON. */
export const LOGIN_MODES = ['redirect', 'json'] as const;
export type LoginMode = (typeof LOGIN_MODES)[number];

/** A started authorization request, bound to the account that started it (none for a sign-in). */
export interface PendingFlow {
  provider: string;
  purpose: FlowPurpose;
  accountId: string | null;
  /** Sign-ins only. */
  mode?: LoginMode | null;
  /** Sign-ins only: SHA-256 of the browser-binding cookie value. */
  bindingHash?: string | null;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface InstitutionalVerification {
  accountId: string;
  issuer: string;
  subject: string;
  institution: string | null;
  email: string | null;
  emailDomain: string | null;
  affiliations: string[];
  verifiedAt: Date;
}

export interface LinkedIdentity {
  id: string;
  accountId: string;
  provider: string;
  issuer: string;
  subject: string;
  name: string | null;
  username?: string | null;
  email?: string | null;
  linkedAt: Date;
}

const FLOW = rowOf(
  {
    provider: col.text,
    purpose: col.oneOf(FLOW_PURPOSES),
    account_id: col.text.nullable(),
    mode: col.oneOf(LOGIN_MODES).nullable(),
    binding_hash: col.text.nullable(),
    code_verifier: col.text,
    nonce: col.text,
    redirect_uri: col.text,
    created_at: col.timestamp,
    expires_at: col.timestamp,
  },
  (r): PendingFlow => ({
    provider: r.provider,
    purpose: r.purpose,
    accountId: r.account_id,
    mode: r.mode,
    bindingHash: r.binding_hash,
    codeVerifier: r.code_verifier,
    nonce: r.nonce,
    redirectUri: r.redirect_uri,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }),
);

const VERIFICATION = rowOf(
  {
    account_id: col.text,
    issuer: col.text,
    subject: col.text,
    institution: col.text.nullable(),
    email: col.text.nullable(),
    email_domain: col.text.nullable(),
    affiliations: col.json(z.array(z.string()).nullable()),
    verified_at: col.timestamp,
  },
  (r): InstitutionalVerification => ({
    accountId: r.account_id,
    issuer: r.issuer,
    subject: r.subject,
    institution: r.institution,
    email: r.email,
    emailDomain: r.email_domain,
    affiliations: r.affiliations ?? [],
    verifiedAt: r.verified_at,
  }),
);

const LINK = rowOf(
  {
    id: col.text,
    account_id: col.text,
    provider: col.text,
    issuer: col.text,
    subject: col.text,
    name: col.text.nullable(),
    username: col.text.nullable(),
    email: col.text.nullable(),
    linked_at: col.timestamp,
  },
  (r): LinkedIdentity => ({
    id: r.id,
    accountId: r.account_id,
    provider: r.provider,
    issuer: r.issuer,
    subject: r.subject,
    name: r.name,
    username: r.username,
    email: r.email,
    linkedAt: r.linked_at,
  }),
);

export class InstitutionalStore {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction with a store bound to it. */
  transaction<T>(work: (store: InstitutionalStore, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new InstitutionalStore(tx as unknown as Db), tx as unknown as Db));
  }

  async saveFlow(stateHash: string, f: PendingFlow): Promise<void> {
    await query(
      this.db,
      'InstitutionalStore.saveFlow',
      sql`insert into ${oidcStates} (state_hash, provider, purpose, account_id, mode, binding_hash, code_verifier, nonce, redirect_uri, created_at, expires_at)
        values (${stateHash}, ${f.provider}, ${f.purpose}, ${f.accountId}, ${f.mode ?? null}, ${f.bindingHash ?? null}, ${f.codeVerifier}, ${f.nonce}, ${f.redirectUri},
                ${f.createdAt.toISOString()}, ${f.expiresAt.toISOString()})`,
    );
  }

  /**
   * Marks the flow with this state hash as used and returns it, in one statement, so of two concurrent callbacks
   * with the same state only one gets the flow. Undefined when the state is unknown or already used; expiry is the
   * caller's decision (it owns the clock).
   */
  async consumeFlow(stateHash: string, provider: string, now: Date): Promise<PendingFlow | undefined> {
    return queryRow(
      this.db,
      'InstitutionalStore.consumeFlow',
      sql`update ${oidcStates} set consumed_at = ${now.toISOString()}
        where state_hash = ${stateHash} and provider = ${provider} and consumed_at is null
        returning ${FLOW.columns()}`,
      FLOW,
    );
  }

  /** Deletes flows that expired before `before`; a row is kept a while after use so a replay reads as "already used". */
  async purgeFlows(before: Date): Promise<void> {
    await query(
      this.db,
      'InstitutionalStore.purgeFlows',
      sql`delete from ${oidcStates} where expires_at < ${before.toISOString()}`,
    );
  }

  async findVerification(accountId: string): Promise<InstitutionalVerification | undefined> {
    return queryRow(
      this.db,
      'InstitutionalStore.findVerification',
      sql`select ${VERIFICATION.columns()}
        from ${institutionalVerifications} where account_id = ${accountId}`,
      VERIFICATION,
    );
  }

  /** Inserts or replaces the account's verification; an institutional identity already verifying another account is Conflict. */
  async upsertVerification(v: InstitutionalVerification): Promise<InstitutionalVerification> {
    const [verification] = await queryRows(
      this.db,
      'InstitutionalStore.upsertVerification',
      sql`insert into ${institutionalVerifications} (account_id, issuer, subject, institution, email, email_domain, affiliations, verified_at)
        values (${v.accountId}, ${v.issuer}, ${v.subject}, ${v.institution}, ${v.email}, ${v.emailDomain},
                ${JSON.stringify(v.affiliations)}::jsonb, ${v.verifiedAt.toISOString()})
        on conflict (account_id) do update set
          issuer = excluded.issuer, subject = excluded.subject, institution = excluded.institution, email = excluded.email,
          email_domain = excluded.email_domain, affiliations = excluded.affiliations, verified_at = excluded.verified_at
        returning ${VERIFICATION.columns()}`,
      VERIFICATION,
      () => 'this institutional identity already verifies another account',
    );
    return verification;
  }

  async findLink(accountId: string, provider: string): Promise<LinkedIdentity | undefined> {
    return queryRow(
      this.db,
      'InstitutionalStore.findLink',
      sql`select ${LINK.columns()} from ${linkedIdentities} where account_id = ${accountId} and provider = ${provider}`,
      LINK,
    );
  }

  /** Links or re-links the account's identity at this provider; one already linked to another account is Conflict. */
  async upsertLink(l: LinkedIdentity): Promise<LinkedIdentity> {
    const [link] = await queryRows(
      this.db,
      'InstitutionalStore.upsertLink',
      sql`insert into ${linkedIdentities} (id, account_id, provider, issuer, subject, name, username, email, linked_at)
        values (${l.id}, ${l.accountId}, ${l.provider}, ${l.issuer}, ${l.subject}, ${l.name}, ${l.username ?? null}, ${l.email ?? null}, ${l.linkedAt.toISOString()})
        on conflict (account_id, provider) do update set
          issuer = excluded.issuer, subject = excluded.subject, name = excluded.name, username = excluded.username,
          email = excluded.email, linked_at = excluded.linked_at
        returning ${LINK.columns()}`,
      LINK,
      () => `this ${l.provider} identity is already linked to another account`,
    );
    return link;
  }

  /** The link of this provider identity, whichever account holds it. */
  async findLinkByIdentity(provider: string, issuer: string, subject: string): Promise<LinkedIdentity | undefined> {
    return queryRow(
      this.db,
      'InstitutionalStore.findLinkByIdentity',
      sql`select ${LINK.columns()} from ${linkedIdentities} where provider = ${provider} and issuer = ${issuer} and subject = ${subject}`,
      LINK,
    );
  }

  /** Every identity linked to the account, oldest first. */
  async listLinks(accountId: string): Promise<LinkedIdentity[]> {
    return queryRows(
      this.db,
      'InstitutionalStore.listLinks',
      sql`select ${LINK.columns()} from ${linkedIdentities} where account_id = ${accountId} order by linked_at, provider`,
      LINK,
    );
  }

  /** Removes the link; false when there was none. */
  async deleteLink(accountId: string, provider: string): Promise<boolean> {
    const rows = await query(
      this.db,
      'InstitutionalStore.deleteLink',
      sql`delete from ${linkedIdentities} where account_id = ${accountId} and provider = ${provider} returning id`,
    );
    return rows.length > 0;
  }
}
