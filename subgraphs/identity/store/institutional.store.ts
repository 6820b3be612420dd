import { sql } from 'drizzle-orm';
import type { Db } from '../../../lib/db/relational.js';
import { institutionalVerifications, linkedIdentities, oidcStates } from './institutional.tables.js';
import { query, toDate } from './db.js';

export type FlowPurpose = 'verify' | 'link' | 'login';
/** How a sign-in hands its result to the client: a login_code in a redirect, or the token pair as JSON. */
export type LoginMode = 'redirect' | 'json';

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

type FlowRow = {
  provider: string;
  purpose: FlowPurpose;
  account_id: string | null;
  mode: LoginMode | null;
  binding_hash: string | null;
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  created_at: string | Date;
  expires_at: string | Date;
};

type VerificationRow = {
  account_id: string;
  issuer: string;
  subject: string;
  institution: string | null;
  email: string | null;
  email_domain: string | null;
  affiliations: string[] | string;
  verified_at: string | Date;
};

type LinkRow = {
  id: string;
  account_id: string;
  provider: string;
  issuer: string;
  subject: string;
  name: string | null;
  username: string | null;
  email: string | null;
  linked_at: string | Date;
};

const FLOW_COLUMNS = sql.raw('provider, purpose, account_id, mode, binding_hash, code_verifier, nonce, redirect_uri, created_at, expires_at');
const LINK_COLUMNS = sql.raw('id, account_id, provider, issuer, subject, name, username, email, linked_at');

const toFlow = (r: FlowRow): PendingFlow => ({
  provider: r.provider,
  purpose: r.purpose,
  accountId: r.account_id,
  mode: r.mode,
  bindingHash: r.binding_hash,
  codeVerifier: r.code_verifier,
  nonce: r.nonce,
  redirectUri: r.redirect_uri,
  createdAt: toDate(r.created_at),
  expiresAt: toDate(r.expires_at),
});

const toVerification = (r: VerificationRow): InstitutionalVerification => ({
  accountId: r.account_id,
  issuer: r.issuer,
  subject: r.subject,
  institution: r.institution,
  email: r.email,
  emailDomain: r.email_domain,
  affiliations: typeof r.affiliations === 'string' ? (JSON.parse(r.affiliations) as string[]) : (r.affiliations ?? []),
  verifiedAt: toDate(r.verified_at),
});

const toLink = (r: LinkRow): LinkedIdentity => ({
  id: r.id,
  accountId: r.account_id,
  provider: r.provider,
  issuer: r.issuer,
  subject: r.subject,
  name: r.name,
  username: r.username,
  email: r.email,
  linkedAt: toDate(r.linked_at),
});

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
    const rows = await query<FlowRow>(
      this.db,
      'InstitutionalStore.consumeFlow',
      sql`update ${oidcStates} set consumed_at = ${now.toISOString()}
        where state_hash = ${stateHash} and provider = ${provider} and consumed_at is null
        returning ${FLOW_COLUMNS}`,
    );
    return rows[0] && toFlow(rows[0]);
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
    const rows = await query<VerificationRow>(
      this.db,
      'InstitutionalStore.findVerification',
      sql`select account_id, issuer, subject, institution, email, email_domain, affiliations, verified_at
        from ${institutionalVerifications} where account_id = ${accountId}`,
    );
    return rows[0] && toVerification(rows[0]);
  }

  /** Inserts or replaces the account's verification; an institutional identity already verifying another account is Conflict. */
  async upsertVerification(v: InstitutionalVerification): Promise<InstitutionalVerification> {
    const rows = await query<VerificationRow>(
      this.db,
      'InstitutionalStore.upsertVerification',
      sql`insert into ${institutionalVerifications} (account_id, issuer, subject, institution, email, email_domain, affiliations, verified_at)
        values (${v.accountId}, ${v.issuer}, ${v.subject}, ${v.institution}, ${v.email}, ${v.emailDomain},
                ${JSON.stringify(v.affiliations)}::jsonb, ${v.verifiedAt.toISOString()})
        on conflict (account_id) do update set
          issuer = excluded.issuer, subject = excluded.subject, institution = excluded.institution, email = excluded.email,
          email_domain = excluded.email_domain, affiliations = excluded.affiliations, verified_at = excluded.verified_at
        returning account_id, issuer, subject, institution, email, email_domain, affiliations, verified_at`,
      () => 'this institutional identity already verifies another account',
    );
    return toVerification(rows[0]);
  }

  async findLink(accountId: string, provider: string): Promise<LinkedIdentity | undefined> {
    const rows = await query<LinkRow>(
      this.db,
      'InstitutionalStore.findLink',
      sql`select ${LINK_COLUMNS} from ${linkedIdentities} where account_id = ${accountId} and provider = ${provider}`,
    );
    return rows[0] && toLink(rows[0]);
  }

  /** Links or re-links the account's identity at this provider; one already linked to another account is Conflict. */
  async upsertLink(l: LinkedIdentity): Promise<LinkedIdentity> {
    const rows = await query<LinkRow>(
      this.db,
      'InstitutionalStore.upsertLink',
      sql`insert into ${linkedIdentities} (id, account_id, provider, issuer, subject, name, username, email, linked_at)
        values (${l.id}, ${l.accountId}, ${l.provider}, ${l.issuer}, ${l.subject}, ${l.name}, ${l.username ?? null}, ${l.email ?? null}, ${l.linkedAt.toISOString()})
        on conflict (account_id, provider) do update set
          issuer = excluded.issuer, subject = excluded.subject, name = excluded.name, username = excluded.username,
          email = excluded.email, linked_at = excluded.linked_at
        returning ${LINK_COLUMNS}`,
      () => `this ${l.provider} identity is already linked to another account`,
    );
    return toLink(rows[0]);
  }

  /** The link of this provider identity, whichever account holds it. */
  async findLinkByIdentity(provider: string, issuer: string, subject: string): Promise<LinkedIdentity | undefined> {
    const rows = await query<LinkRow>(
      this.db,
      'InstitutionalStore.findLinkByIdentity',
      sql`select ${LINK_COLUMNS} from ${linkedIdentities} where provider = ${provider} and issuer = ${issuer} and subject = ${subject}`,
    );
    return rows[0] && toLink(rows[0]);
  }

  /** Every identity linked to the account, oldest first. */
  async listLinks(accountId: string): Promise<LinkedIdentity[]> {
    const rows = await query<LinkRow>(
      this.db,
      'InstitutionalStore.listLinks',
      sql`select ${LINK_COLUMNS} from ${linkedIdentities} where account_id = ${accountId} order by linked_at, provider`,
    );
    return rows.map(toLink);
  }

  /** Removes the link; false when there was none. */
  async deleteLink(accountId: string, provider: string): Promise<boolean> {
    const rows = await query<{ id: string }>(
      this.db,
      'InstitutionalStore.deleteLink',
      sql`delete from ${linkedIdentities} where account_id = ${accountId} and provider = ${provider} returning id`,
    );
    return rows.length > 0;
  }
}
