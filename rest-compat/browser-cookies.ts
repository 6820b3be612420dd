import type { FastifyRequest } from 'fastify';

/** The value of cookie `name` of a request, or null when it is absent or empty. */
export function cookieOf(request: FastifyRequest, name: string): string | null {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/**
 * A Set-Cookie value of the service's own cookies: always HttpOnly (no script of any page reads them) and
 * SameSite=Lax, which a top-level navigation back from a login provider still carries; Secure when browsers reach
 * the service over https. A `maxAgeSec` of 0 clears the cookie.
 */
export function serializeCookie(name: string, value: string, opts: { path: string; maxAgeSec: number; secure: boolean }): string {
  return `${name}=${value}; Path=${opts.path}; Max-Age=${opts.maxAgeSec}; HttpOnly; SameSite=Lax${opts.secure ? '; Secure' : ''}`;
}

/**
 * One message for the next page the browser shows (post/redirect/get): `status` for a success, `alert` for a
 * failure. It lives a minute and the page that shows it clears it.
 */
export interface Flash {
  kind: 'status' | 'alert';
  message: string;
}

export const FLASH_COOKIE = 'nd_flash';
const FLASH_MAX_CHARS = 500;

export function flashCookie(flash: Flash, secure: boolean): string {
  const value = Buffer.from(JSON.stringify({ kind: flash.kind, message: flash.message.slice(0, FLASH_MAX_CHARS) })).toString('base64url');
  return serializeCookie(FLASH_COOKIE, value, { path: '/', maxAgeSec: 60, secure });
}

export const clearFlashCookie = (secure: boolean): string => serializeCookie(FLASH_COOKIE, '', { path: '/', maxAgeSec: 0, secure });

/** The flash message a request carries, or null (absent or not one of ours). */
export function flashOf(request: FastifyRequest): Flash | null {
  const value = cookieOf(request, FLASH_COOKIE);
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Flash>;
    if ((parsed.kind !== 'status' && parsed.kind !== 'alert') || typeof parsed.message !== 'string') return null;
    return { kind: parsed.kind, message: parsed.message.slice(0, FLASH_MAX_CHARS) };
  } catch {
    return null;
  }
}

/**
 * A path of this site to send the browser back to: one leading slash (`//host` and `/\host` would leave the site)
 * and nothing a header or a URL could be split on.
 */
export function isSameSitePath(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.length <= 512 && /^\/(?![/\\])[^\s\\;,"\u0000-\u001f\u007f]*$/.test(value);
}

/**
 * `value` as a Location header can carry it, when it is a path of this site (isSameSitePath): characters outside
 * printable ASCII percent-encoded as UTF-8 (a header holds bytes, and Node refuses any character above U+00FF);
 * what is already percent-encoded stays as it is. Null for anything else, a lone surrogate included.
 */
export function sameSitePath(value: string | null | undefined): string | null {
  if (!isSameSitePath(value)) return null;
  try {
    return value.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  } catch {
    return null;
  }
}
