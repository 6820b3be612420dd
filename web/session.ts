import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { outsideRequestScope } from '../lib/request-scope.js';
import { cookieOf, serializeCookie } from '../rest-compat/browser-cookies.js';
import type { RunNamedOperation } from './operations.js';
import type { RefreshSessionResult } from './operations.types.js';

/** The access token of a browser session (15 minutes). */
export const ACCESS_COOKIE = 'nd_at';
/** The refresh token of a browser session (30 days); rotated by every refresh. */
export const REFRESH_COOKIE = 'nd_rt';

/** What the identity subgraph answers for a login, a refresh and a code exchange (each asks for the same fields). */
export type TokenPair = RefreshSessionResult['refreshSession'];

/** The two cookies of a session, as Set-Cookie values. Both HttpOnly: no script on a page can read a token. */
export function sessionCookies(pair: TokenPair, secure: boolean): string[] {
  return [
    serializeCookie(ACCESS_COOKIE, pair.access_token, { path: '/', maxAgeSec: pair.expires_in, secure }),
    serializeCookie(REFRESH_COOKIE, pair.refresh_token, { path: '/', maxAgeSec: pair.refresh_expires_in, secure }),
  ];
}

export function clearedSessionCookies(secure: boolean): string[] {
  return [ACCESS_COOKIE, REFRESH_COOKIE].map((name) => serializeCookie(name, '', { path: '/', maxAgeSec: 0, secure }));
}

/** A token is refreshed this long before it expires, so it does not run out between the page and its operations. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Whether an access token is still worth sending: its `exp` claim is more than 30 s away. Only read, not verified:
 * the gateway verifies the token of every operation, and a forged one gets no further there than no token at all.
 * A PASETO v4.public token is `v4.public.<base64url(claims JSON || 64-byte signature)>[.<footer>]`.
 */
export function isAccessTokenFresh(token: string, now = Date.now()): boolean {
  const claims = unverifiedClaims(token);
  const exp = typeof claims?.exp === 'string' ? Date.parse(claims.exp) : NaN;
  return claims?.kind === 'access' && Number.isFinite(exp) && exp - EXPIRY_MARGIN_MS > now;
}

/**
 * Whether the session's access token claims a SuperUser: only for what the navigation shows (the admin pages'
 * operations are checked by the gateway, which verifies the token). Unverified, like `isAccessTokenFresh`.
 */
export const claimsSuperUser = (token: string | null): boolean => Boolean(token && unverifiedClaims(token)?.account_type === 'SUPERUSER');

function unverifiedClaims(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length < 3 || parts[0] !== 'v4' || parts[1] !== 'public') return null;
  try {
    const body = Buffer.from(parts[2]!, 'base64url');
    if (body.length <= 64) return null;
    const claims: unknown = JSON.parse(body.subarray(0, body.length - 64).toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** How a refresh went: a new pair, refused (the session is over: sign in again), or failed for now (try later). */
export type RefreshOutcome = { pair: TokenPair } | { refused: string } | { failed: true };

const REFRESH_TIMEOUT_MS = 15_000;

/** How long a settled refresh is remembered, so that requests a browser sent with the old cookie get the same pair. */
const REMEMBER_SETTLED_MS = 60_000;

/**
 * Refreshes browser sessions at most once per refresh token in this process. A browser sends several requests at
 * once (a page and its assets, two tabs), all with the same expired access token and the same refresh token; refresh
 * tokens rotate, and presenting a used one revokes the whole login (docs/identity.md). So the first request
 * refreshes and the others, concurrent or up to a minute late, get the same new pair. Keys are SHA-256 digests:
 * the map holds no token.
 *
 * Another process (a replica) does not see this map: a browser's requests spread over replicas with an expired
 * access token can still meet a reuse. Sticky sessions avoid that; the access token's 15 minutes make it rare.
 */
export class SessionRefresher {
  private readonly inFlight = new Map<string, Promise<RefreshOutcome>>();

  constructor(private readonly run: RunNamedOperation) {}

  refresh(request: FastifyRequest, refreshToken: string): Promise<RefreshOutcome> {
    const key = createHash('sha256').update(refreshToken).digest('base64url');
    let outcome = this.inFlight.get(key);
    if (outcome) return outcome;
    outcome = this.rotate(request, refreshToken);
    this.inFlight.set(key, outcome);
    void outcome.then((settled) => {
      // A failure that says nothing about the token (the service was busy) is not kept: the next request retries.
      if ('failed' in settled) this.inFlight.delete(key);
      else setTimeout(() => this.inFlight.delete(key), REMEMBER_SETTLED_MS).unref();
    });
    return outcome;
  }

  private async rotate(request: FastifyRequest, refreshToken: string): Promise<RefreshOutcome> {
    // Shared by every request that waits for it, so none of them may stop it: a browser that cancels the first
    // request (a click while the page loads) must not abort a refresh the store may already have committed, whose
    // token the next request would then present again and revoke the login with.
    const detached = new AbortController();
    setTimeout(() => detached.abort(new Error('session refresh timed out')), REFRESH_TIMEOUT_MS).unref();
    const view = Object.create(request, { abort: { value: detached } }) as FastifyRequest;
    try {
      const result = await outsideRequestScope(() =>
        this.run(view, 'refreshSession', {
          refresh_token: refreshToken,
        }),
      );
      const error = result.errors?.[0];
      if (!error) return { pair: result.data!.refreshSession };
      if (error.extensions?.code === 'UNAUTHENTICATED') return { refused: error.message };
      request.log.warn({ code: error.extensions?.code }, 'browser session refresh failed');
      return { failed: true };
    } catch (err) {
      request.log.warn({ err }, 'browser session refresh failed');
      return { failed: true };
    }
  }
}

/** What a page request knows of its browser session. */
export interface BrowserSession {
  /** An access token to send (fresh, or just refreshed); null when the browser is signed out. */
  accessToken: string | null;
  refreshToken: string | null;
  /** Set-Cookie values to send back (a rotated pair, or the cleared cookies of a session that ended). */
  cookies: string[];
}

/**
 * The session of a page request, from its cookies: a fresh `nd_at` is used as it is; otherwise `nd_rt` is refreshed
 * (single-flight) and both cookies are replaced; a refused refresh clears them.
 */
export async function resolveSession(request: FastifyRequest, refresher: SessionRefresher, secure: boolean): Promise<BrowserSession> {
  const access = cookieOf(request, ACCESS_COOKIE);
  const refresh = cookieOf(request, REFRESH_COOKIE);
  if (access && isAccessTokenFresh(access)) return { accessToken: access, refreshToken: refresh, cookies: [] };
  if (!refresh) return { accessToken: null, refreshToken: null, cookies: access ? clearedSessionCookies(secure) : [] };
  const outcome = await refresher.refresh(request, refresh);
  if ('pair' in outcome) return { accessToken: outcome.pair.access_token, refreshToken: outcome.pair.refresh_token, cookies: sessionCookies(outcome.pair, secure) };
  if ('refused' in outcome) return { accessToken: null, refreshToken: null, cookies: clearedSessionCookies(secure) };
  // The refresh could not be tried: signed out for this request, cookies kept for the next.
  return { accessToken: null, refreshToken: refresh, cookies: [] };
}
