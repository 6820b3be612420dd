import type { FastifyBaseLogger } from 'fastify';
import { AccessClass, classOf } from '../../lib/access.js';
import type { Viewer } from '../../lib/auth/viewer.js';
import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict, Forbidden, NotFound, Unauthenticated } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import type { TokenScope } from '../../lib/access.js';
import type { ApiTokenRecord, ApiTokenStore } from './store/api-token.store.js';

export type { ApiTokenRecord } from './store/api-token.store.js';
import {
  API_TOKENS_PER_ACCOUNT,
  apiTokenRefusal,
  checkedScope,
  checkedTokenName,
  expiryOf,
  hasApiTokenShape,
  hashApiToken,
  newApiToken,
  type ApiTokenRevokeReason,
} from './api-token.rules.js';

/** How stale a token's recorded last use may get before a use writes it again (one write a minute, not one a request). */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * Personal API tokens: made, listed and revoked by a signed-in person (never through a token: the fields say
 * `token: 'login'`), presented by scripts as a Bearer credential. The account's type is read at every use, so a
 * token never carries more than its account holds now.
 */
export class ApiTokenService {
  constructor(
    private readonly store: ApiTokenStore,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async create(viewer: Viewer, input: { name: string; scope?: string | null; expires_in_days?: number | null }): Promise<{ token: string; record: ApiTokenRecord }> {
    const name = checkedTokenName(input.name);
    const scope = checkedScope(input.scope);
    const now = this.clock.now();
    const expiresAt = expiryOf(now, input.expires_in_days);
    const made = newApiToken();
    const record = await this.store.insert({ id: newId(), accountId: viewer.id, name, scope, hash: made.hash, prefix: made.prefix, createdAt: now, expiresAt }, API_TOKENS_PER_ACCOUNT);
    if (!record) throw new Conflict(`this account already has ${API_TOKENS_PER_ACCOUNT} live API tokens: revoke some first`);
    this.log.info({ accountId: viewer.id, tokenId: record.id, scope, expiresAt }, 'API token created');
    return { token: made.token, record };
  }

  async list(viewer: Viewer, args: { user_id?: string | null; include_revoked?: boolean | null; limit?: number | null; offset?: number | null }) {
    const limit = args.limit ?? 50;
    const offset = args.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new BadInput('limit: an integer from 1 to 100');
    if (!Number.isInteger(offset) || offset < 0) throw new BadInput('offset: a non-negative integer');
    const accountId = args.user_id ?? viewer.id;
    if (accountId !== viewer.id) {
      if (classOf(viewer) !== AccessClass.SuperUser) throw new Forbidden("user_id: only a SuperUser lists another account's API tokens");
      if (!isUuid(accountId)) throw new NotFound(`no account ${accountId}`);
    }
    const page = await this.store.list(accountId, { includeEnded: Boolean(args.include_revoked), now: this.clock.now(), limit, offset });
    return { ...page, limit, offset };
  }

  /** The owner revokes their token, a SuperUser anyone's; any other caller is told it does not exist. */
  async revoke(viewer: Viewer, tokenId: string): Promise<ApiTokenRecord> {
    const missing = () => new NotFound(`no API token ${tokenId}`);
    if (!isUuid(tokenId)) throw missing();
    const found = await this.store.findById(tokenId);
    const superUser = classOf(viewer) === AccessClass.SuperUser;
    if (!found || (found.accountId !== viewer.id && !superUser)) throw missing();
    if (found.revokedAt) return found;
    const reason: ApiTokenRevokeReason = found.accountId === viewer.id ? 'owner' : 'superuser';
    const revoked = (await this.store.revoke(tokenId, reason, this.clock.now())) ?? (await this.store.findById(tokenId));
    if (!revoked) throw missing();
    this.log.info({ accountId: found.accountId, tokenId, by: viewer.id, reason }, 'API token revoked');
    return revoked;
  }

  /** Ends every token of an account: called when its password or email changes and when it is deactivated. */
  async revokeAll(accountId: string, reason: Extract<ApiTokenRevokeReason, 'credentials_changed' | 'account_deactivated'>): Promise<number> {
    const revoked = await this.store.revokeAll(accountId, reason, this.clock.now());
    if (revoked) this.log.info({ accountId, revoked, reason }, 'API tokens revoked');
    return revoked;
  }

  /** The viewer a presented token stands for, or 401 saying whether it is wrong, expired or revoked. */
  async verify(token: string, clientIp: string | undefined): Promise<Viewer> {
    if (!hasApiTokenShape(token)) throw new Unauthenticated(apiTokenRefusal.unknown);
    const found = await this.store.findByHash(hashApiToken(token));
    if (!found) throw new Unauthenticated(apiTokenRefusal.unknown);
    if (found.revokedAt) throw new Unauthenticated(apiTokenRefusal.revoked(found.revokedAt, found.revokedReason));
    const now = this.clock.now();
    if (found.expiresAt <= now) throw new Unauthenticated(apiTokenRefusal.expired(found.expiresAt));
    if (found.deactivatedAt) throw new Unauthenticated(apiTokenRefusal.deactivated);
    const ip = clientIp ?? null;
    if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USE_RESOLUTION_MS || found.lastUsedIp !== ip) {
      await this.store.recordUse(found.id, now, ip);
    }
    return {
      id: found.accountId,
      accountType: found.accountType,
      verified: found.verified,
      tokenId: found.id,
      apiToken: { id: found.id, scope: found.scope as TokenScope },
    };
  }
}
