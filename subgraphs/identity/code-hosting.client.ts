import type { FastifyBaseLogger } from 'fastify';
import { ServiceUnavailable } from '../../lib/errors.js';

/** Who a GitHub-style access token belongs to, as ID-token-like claims. */
export interface CodeHostingUser {
  /** The numeric user id as a string: stable, unlike the login, which the user can rename. */
  subject: string;
  claims: {
    sub: string;
    preferred_username: string | null;
    name: string | null;
    /** The primary email, only when the provider says it is verified; null otherwise. */
    email: string | null;
    email_verified: boolean;
    profile: string | null;
  };
}

interface UserResponse {
  id?: unknown;
  login?: unknown;
  name?: unknown;
  html_url?: unknown;
}

interface EmailEntry {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

const TIMEOUT_MS = 10_000;
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * Reads the user behind an access token from a GitHub-style REST API (`GET /user`, `GET /user/emails`, both with
 * the token as Bearer), at github.com or a GitHub Enterprise `https://<host>/api/v3`. The provider is not OpenID
 * Connect, so these two calls are the only statement of identity. Only a primary email that is also verified is
 * kept: a secondary or unverified address proves nothing about who holds it.
 */
export async function fetchCodeHostingUser(apiUrl: string, accessToken: string, label: string, log: FastifyBaseLogger): Promise<CodeHostingUser> {
  const user = await getJson<UserResponse>(`${apiUrl}/user`, accessToken, label, log);
  const id = typeof user.id === 'number' || typeof user.id === 'string' ? String(user.id) : null;
  if (!id) {
    log.warn({ apiUrl }, 'code-hosting user API answered without an id');
    throw new ServiceUnavailable(`the ${label} provider answered an unexpected user document; try again later`);
  }
  const emails = await getJson<EmailEntry[]>(`${apiUrl}/user/emails`, accessToken, label, log);
  const primary = Array.isArray(emails) ? emails.find((e) => e?.primary === true && e?.verified === true) : undefined;
  const email = text(primary?.email);
  return {
    subject: id,
    claims: {
      sub: id,
      preferred_username: text(user.login),
      name: text(user.name),
      email,
      email_verified: email !== null,
      profile: text(user.html_url),
    },
  };
}

async function getJson<T>(url: string, accessToken: string, label: string, log: FastifyBaseLogger): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        // GitHub refuses API requests without a User-Agent.
        'user-agent': 'neurodata-service',
      },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    log.warn({ url, err: (e as Error).message }, 'code-hosting API unreachable');
    throw new ServiceUnavailable(`the ${label} provider cannot be reached; try again later`);
  }
  if (!res.ok) {
    // The token was issued a moment ago: a refusal here is the provider's or the operator's problem, not the user's.
    log.error({ url, status: res.status, body: (await res.text().catch(() => '')).slice(0, 300) }, 'code-hosting API refused the access token');
    throw new ServiceUnavailable(`the ${label} provider refused to tell who signed in (HTTP ${res.status}); try again later or contact the operators`);
  }
  try {
    return (await res.json()) as T;
  } catch {
    throw new ServiceUnavailable(`the ${label} provider answered something that is not JSON; try again later`);
  }
}
