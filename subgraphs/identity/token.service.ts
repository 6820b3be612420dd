import type { ApiTokenService } from './api-token.service.js';
import { isApiToken } from './api-token.rules.js';
import { createHash } from 'node:crypto';
import { InspectFooter, PasetoError, PublicProtocol, type Claims } from 'paseto';
import { SignFactory, VerifyFactory, type PublicKey } from 'paseto/v4/public';
import type { AccountType, ForeignIssuer, TokenVerifier, Viewer } from '../../lib/auth/viewer.js';
import type { Clock } from '../../lib/clock.js';
import { Unauthenticated } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import type { SigningKey, VerificationKeys } from './token.keys.js';
import type { AccountStore } from './store/account.store.js';

const k4 = new PublicProtocol(SignFactory, VerifyFactory);

/** Spec 2.2 and 8. */
export const ACCESS_TOKEN_TTL_SEC = 15 * 60;
export const REFRESH_TOKEN_TTL_SEC = 30 * 24 * 60 * 60;
/** Tolerated clock difference between the instance that signed a token and the one verifying it. */
export const CLOCK_TOLERANCE_SEC = 30;

export type TokenKind = 'access' | 'refresh';
const ACCOUNT_TYPES: readonly AccountType[] = ['REGULAR', 'ACADEMIC', 'SERVICE', 'SUPERUSER'];

export interface TokenSubject {
  accountId: string;
  accountType: AccountType;
  verified: boolean;
}

export interface VerifiedClaims extends TokenSubject {
  kind: TokenKind;
  jti: string;
  /** The family (one per login): always in refresh tokens; in access tokens issued since they carry it. */
  familyId?: string;
  issuedAt: Date;
  expiresAt: Date;
  /** Set when another cluster's key signed the token. */
  issuer?: ForeignIssuer;
}

/** A key of another cluster, found by key id; only access tokens are ever checked with one. */
export type ForeignKeyLookup = (kid: string) => Promise<{ key: PublicKey; issuer: ForeignIssuer } | null>;

export interface IssuedToken {
  token: string;
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Checks PASETO v4.public tokens with public keys only: the footer names the key (PASERK k4.pid), the signature,
 * expiry and issue time are checked against the injected clock, and every claim the service relies on must be
 * present and well-formed. An access token is never accepted where a refresh token is expected, or the reverse.
 */
export class TokenChecker {
  constructor(
    private readonly keys: () => Promise<VerificationKeys>,
    private readonly clock: Clock,
    private readonly foreignKey?: ForeignKeyLookup,
  ) {}

  async check(token: string, kind: TokenKind): Promise<VerifiedClaims> {
    const what = `${kind} token`;
    if (typeof token !== 'string' || !token.startsWith('v4.public.')) throw new Unauthenticated(`invalid ${what}: expected a PASETO v4.public token`);
    let kid: unknown;
    try {
      kid = JSON.parse(decoder.decode(InspectFooter(token))).kid;
    } catch {
      throw new Unauthenticated(`invalid ${what}: its footer does not name a signing key`);
    }
    const own = typeof kid === 'string' ? (await this.keys()).get(kid) : undefined;
    const foreign = !own && kind === 'access' && typeof kid === 'string' && this.foreignKey ? await this.foreignKey(kid) : null;
    const key = own ?? foreign;
    if (!key) throw new Unauthenticated(`invalid ${what}: signed by a key this service does not accept`);
    let claims: Claims;
    try {
      ({ claims } = await k4.Verify(key.key, token, {
        now: this.clock.now(),
        clockTolerance: CLOCK_TOLERANCE_SEC,
        requiredClaims: ['sub', 'jti', 'iat', 'exp', 'kind', 'account_type', 'verified'],
      }));
    } catch (e) {
      if (e instanceof PasetoError && e.code === 'ERR_PASETO_CLAIM_VALIDATION' && /expired/i.test(e.message)) {
        throw new Unauthenticated(
          kind === 'access' ? 'access token expired: get a new one at POST /v1/user/auth/refresh' : 'refresh token expired: log in again',
        );
      }
      throw new Unauthenticated(`invalid ${what}`);
    }
    if (claims.kind !== kind) {
      throw new Unauthenticated(kind === 'access' ? 'a refresh token cannot be used as an access token' : 'expected a refresh token, got an access token');
    }
    const accountType = claims.account_type as AccountType;
    const wellFormed =
      isUuid(claims.sub) &&
      isUuid(claims.jti) &&
      ACCOUNT_TYPES.includes(accountType) &&
      typeof claims.verified === 'boolean' &&
      (kind === 'access' ? claims.fam === undefined || isUuid(claims.fam) : isUuid(claims.fam));
    if (!wellFormed) throw new Unauthenticated(`invalid ${what}: malformed claims`);
    return {
      kind,
      accountId: claims.sub!,
      accountType,
      verified: claims.verified as boolean,
      jti: claims.jti!,
      familyId: claims.fam as string | undefined,
      issuedAt: new Date(claims.iat!),
      expiresAt: new Date(claims.exp!),
      ...(foreign ? { issuer: foreign.issuer } : {}),
    };
  }
}

/** Signs access and refresh tokens with this instance's key; the footer carries the key id. */
export class TokenSigner {
  constructor(
    private readonly key: () => Promise<SigningKey>,
    private readonly clock: Clock,
  ) {}

  async issue(kind: TokenKind, subject: TokenSubject, familyId?: string): Promise<IssuedToken> {
    const jti = newId();
    const ttl = kind === 'access' ? ACCESS_TOKEN_TTL_SEC : REFRESH_TOKEN_TTL_SEC;
    // Whole seconds: PASETO dates are RFC 3339 strings, and the stored expiry must equal the signed one.
    const issuedAt = new Date(Math.floor(this.clock.now().getTime() / 1000) * 1000);
    const claims: Record<string, string | boolean> = {
      sub: subject.accountId,
      jti,
      kind,
      account_type: subject.accountType,
      verified: subject.verified,
    };
    if (familyId) claims.fam = familyId;
    const key = await this.key();
    const footer = encoder.encode(JSON.stringify({ kid: key.kid }));
    const token = await k4.Sign(key.key, claims, { footer, now: issuedAt, expiresIn: ttl });
    return { token, jti, issuedAt, expiresAt: new Date(issuedAt.getTime() + ttl * 1000) };
  }
}

/** The gateway's and every subgraph's view of an access token: who is calling. */
export class PasetoTokenVerifier implements TokenVerifier {
  private readonly checker: TokenChecker;

  constructor(
    keys: VerificationKeys,
    clock: Clock,
    private readonly accounts: Pick<AccountStore, 'findById'>,
    private readonly apiTokens: Pick<ApiTokenService, 'verify'>,
    foreignKey?: ForeignKeyLookup,
  ) {
    this.checker = new TokenChecker(async () => keys, clock, foreignKey);
  }

  async currentStanding(accountId: string): Promise<Pick<Viewer, 'accountType' | 'verified'> | null> {
    const account = await this.accounts.findById(accountId);
    return account && !account.deactivatedAt ? { accountType: account.accountType, verified: account.verified } : null;
  }

  async verifyAccessToken(token: string, request?: { clientIp?: string }): Promise<Viewer> {
    // A personal API token is looked up (it can be revoked, and its account's class is read now); an access token is verified by its signature alone.
    if (isApiToken(token)) return this.apiTokens.verify(token, request?.clientIp);
    const c = await this.checker.check(token, 'access');
    if (c.issuer) return foreignViewer(c, c.issuer);
    return { id: c.accountId, accountType: c.accountType, verified: c.verified, tokenId: c.jti, sessionId: c.familyId };
  }
}

/**
 * Who a token of another cluster stands for here: a person of that cluster, never a local account. The id is
 * derived from the cluster and their account there (a UUID of version 8 from SHA-256), so that cluster cannot name
 * a local account and act as it; the class is what that cluster claimed, capped by the issuer's maximum
 * (a SuperUser elsewhere is at most Academic here).
 */
export function foreignViewer(c: VerifiedClaims, issuer: ForeignIssuer): Viewer {
  const claimed = c.accountType;
  const academic = claimed === 'SUPERUSER' || claimed === 'SERVICE' || (claimed === 'ACADEMIC' && c.verified);
  const asAcademic = academic && issuer.maxClass === 'Academic';
  return {
    id: foreignAccountId(issuer.clusterId, c.accountId),
    accountType: asAcademic ? 'ACADEMIC' : 'REGULAR',
    verified: asAcademic,
    tokenId: c.jti,
    origin: { clusterId: issuer.clusterId, clusterName: issuer.clusterName, accountId: c.accountId },
  };
}

export function foreignAccountId(clusterId: string, accountId: string): string {
  const h = createHash('sha256').update(`federation:${clusterId}:${accountId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
