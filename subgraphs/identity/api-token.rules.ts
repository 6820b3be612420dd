import { createHash, randomBytes } from 'node:crypto';
import { TOKEN_SCOPES, type TokenScope } from '../../lib/access.js';
import { BadInput } from '../../lib/errors.js';

/**
 * Personal API tokens read `ndt_` followed by 43 base64url characters (256 random bits). The prefix tells them apart
 * from the 15-minute access tokens (PASETO, `v4.public.`) at a glance and lets secret scanners find leaked ones.
 */
export const API_TOKEN_PREFIX = 'ndt_';
const TOKEN_SHAPE = /^ndt_[A-Za-z0-9_-]{43}$/;

export const API_TOKEN_DEFAULT_DAYS = 90;
export const API_TOKEN_MAX_DAYS = 365;
export const API_TOKEN_NAME_MAX = 100;
/** Live tokens per account: enough for every machine and notebook a person runs, not a way to fill the table. */
export const API_TOKENS_PER_ACCOUNT = 100;

export const isApiToken = (credential: string) => credential.startsWith(API_TOKEN_PREFIX);
export const hasApiTokenShape = (credential: string) => TOKEN_SHAPE.test(credential);

export function newApiToken(): { token: string; hash: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 6) };
}

/** 256 random bits need no slow hash: a SHA-256 cannot be reversed, and the lookup stays one index probe. */
export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function checkedTokenName(name: string): string {
  const trimmed = String(name ?? '').trim().replace(/\s+/g, ' ');
  if (!trimmed) throw new BadInput('name: required (what the token is for, e.g. "laptop notebooks")');
  if ([...trimmed].length > API_TOKEN_NAME_MAX) throw new BadInput(`name: at most ${API_TOKEN_NAME_MAX} characters`);
  return trimmed;
}

export function checkedScope(scope: string | null | undefined): TokenScope {
  const s = scope ?? 'read';
  if (!(TOKEN_SCOPES as readonly string[]).includes(s)) throw new BadInput(`scope: expected one of ${TOKEN_SCOPES.join(', ')}, got ${JSON.stringify(s)}`);
  return s as TokenScope;
}

export function expiryOf(now: Date, days: number | null | undefined): Date {
  const d = days ?? API_TOKEN_DEFAULT_DAYS;
  if (!Number.isInteger(d) || d < 1 || d > API_TOKEN_MAX_DAYS) throw new BadInput(`expires_in_days: an integer from 1 to ${API_TOKEN_MAX_DAYS}`);
  return new Date(now.getTime() + d * 86_400_000);
}

export const API_TOKEN_REVOKE_REASONS = ['owner', 'superuser', 'credentials_changed', 'account_deactivated'] as const;
export type ApiTokenRevokeReason = (typeof API_TOKEN_REVOKE_REASONS)[number];

const REVOKED_BECAUSE: Record<ApiTokenRevokeReason, string> = {
  owner: 'by its owner',
  superuser: 'by an administrator',
  credentials_changed: "because the account's password or email changed",
  account_deactivated: 'because the account was deactivated',
};

/** The 401 messages: each says which of wrong, expired or revoked the token is, and what to do. */
export const apiTokenRefusal = {
  unknown: 'this API token is not valid: it was never issued here or is mistyped (a token is ndt_ and 43 more characters); create one on the API tokens page (/tokens)',
  expired: (at: Date) => `this API token expired on ${at.toISOString()}: create a new one on the API tokens page (/tokens)`,
  revoked: (at: Date, reason: string | null) =>
    `this API token was revoked on ${at.toISOString()} ${REVOKED_BECAUSE[reason as ApiTokenRevokeReason] ?? ''}`.trim() + ': create a new one on the API tokens page (/tokens)',
  deactivated: "this API token's account is deactivated",
};
