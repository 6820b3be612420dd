import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { cookieOf, serializeCookie } from '../rest-compat/browser-cookies.js';

/**
 * Cross-site request forgery: every state-changing page action is a POST form whose hidden `_csrf` field must equal
 * this cookie (double submit), and whose Origin header, when the browser sends one, must be this service's origin.
 * The value is random per browser and lives as long as a refresh token; SameSite=Lax keeps it off cross-site POSTs.
 */
export const CSRF_COOKIE = 'nd_csrf';
export const CSRF_FIELD = '_csrf';
const CSRF_MAX_AGE_SEC = 30 * 24 * 3600;
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

/** The browser's CSRF value, and the Set-Cookie value that issues one when it has none yet. */
export function csrfOf(request: FastifyRequest, secure: boolean): { value: string; cookie?: string } {
  const current = cookieOf(request, CSRF_COOKIE);
  if (current && WELL_FORMED.test(current)) return { value: current };
  const value = randomBytes(32).toString('base64url');
  return { value, cookie: serializeCookie(CSRF_COOKIE, value, { path: '/', maxAgeSec: CSRF_MAX_AGE_SEC, secure }) };
}

/** Compares in constant time (digests of equal length), so the comparison says nothing about a near miss. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Why a state-changing request is refused, or null when it may go on: `submitted` is the form's (or the link's)
 * value, `origin` this service's origin.
 */
export function csrfProblem(request: FastifyRequest, submitted: unknown, origin: string): string | null {
  const sentOrigin = request.headers.origin;
  if (sentOrigin !== undefined && sentOrigin !== origin) return 'this form was sent from another site';
  const cookie = cookieOf(request, CSRF_COOKIE);
  if (!cookie || !WELL_FORMED.test(cookie)) return 'this browser has no form token yet (are cookies blocked?)';
  if (typeof submitted !== 'string' || !sameSecret(submitted, cookie)) return 'this form is out of date or was not sent from this site';
  return null;
}
