import type { Config } from '../../lib/config.js';

/** Every method a route of the table uses: a browser's preflight for any of them is answered. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const CORS_EXPOSED_HEADERS = ['X-Request-ID', 'X-Error-Code', 'X-Error-Reason', 'api-version', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

/** Browser origins allowed to read responses: any outside production, only API_DOMAIN's origin in production. */
export function corsOrigin(config: Config): true | string[] {
  // An array makes @fastify/cors compare, and send nothing at all to other origins.
  return config.env === 'production' ? [new URL(config.http.apiDomain!).origin] : true;
}

/** The CORS headers @fastify/cors would add, for responses written before its hook could run (framework errors). */
export function corsHeaders(config: Config, origin: string | undefined): Record<string, string> {
  const allowed = corsOrigin(config);
  if (!origin || (allowed !== true && !allowed.includes(origin))) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
    vary: 'Origin',
  };
}

/**
 * Headers every response carries, errors included (X-Request-ID aside, which is per request). API responses are
 * data, never a document: nothing may frame or sniff them, and they load nothing. The HTML pages replace the CSP
 * with one that lets them run their own scripts (rest-compat/pages.ts).
 */
export function responseHeaders(config: Config): Record<string, string> {
  return {
    'api-version': 'v1',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    // Only production is known to be reached over https; a browser that saw this over http would ignore it anyway.
    ...(config.env === 'production' ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}
