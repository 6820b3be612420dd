import { randomInt } from 'node:crypto';
import { BadInput } from '../../lib/errors.js';

/** Pure input rules of the identity subgraph: each throws BadInput naming the field and what is accepted. */

/** RFC 5321's limit on a forward path, less its angle brackets. */
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;
export const DISPLAY_NAME_MAX = 100;
export const AFFILIATION_MAX = 200;
export const BIO_MAX = 2000;
export const LINKS_MAX = 10;
export const LINK_MAX = 2048;
export const VERIFICATION_REASON_MAX = 500;

const LOCAL_PART = /^[^\s@"(),:;<>[\\\]\p{Cc}]{1,64}$/u;
const DOMAIN = /^(?=.{1,253}$)[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?)+$/u;

export interface NormalizedEmail {
  /** As stored and shown: trimmed, Unicode NFC, domain lower-cased, local part as typed. */
  email: string;
  /** Fully lower-cased: what uniqueness and login compare. */
  key: string;
}

/**
 * Email rule: trim and lower-case the domain (domains are case-insensitive); the local part keeps its case for
 * display, but two addresses that differ only in case count as the same account (nearly every mail provider
 * treats them so, and users type them inconsistently).
 */
export function normalizeEmail(input: string, field = 'email'): NormalizedEmail {
  const trimmed = String(input ?? '').trim().normalize('NFC');
  if (trimmed.length > EMAIL_MAX) throw new BadInput(`${field}: at most ${EMAIL_MAX} characters (got ${trimmed.length})`);
  const at = trimmed.lastIndexOf('@');
  const local = at > 0 ? trimmed.slice(0, at) : '';
  const domain = at > 0 ? trimmed.slice(at + 1).toLowerCase() : '';
  if (!LOCAL_PART.test(local) || !DOMAIN.test(domain)) {
    throw new BadInput(`${field}: expected an email address like name@example.org`);
  }
  const email = `${local}@${domain}`;
  return { email, key: email.toLowerCase() };
}

/**
 * The lookup key for a login attempt. A malformed email is refused like an unknown one (401), except one longer
 * than any account can have: that is refused at once, before it costs a password check or reaches a store.
 */
export function emailKeyForLogin(input: string, field = 'email'): string {
  const key = String(input ?? '').trim().normalize('NFC').toLowerCase();
  if (key.length > EMAIL_MAX) throw new BadInput(`${field}: at most ${EMAIL_MAX} characters (got ${key.length})`);
  return key;
}

export function validatePassword(password: string, email: NormalizedEmail, field = 'password'): void {
  const length = [...String(password ?? '')].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw new BadInput(`${field}: must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long (got ${length})`);
  }
  if (password.trim().toLowerCase() === email.key) throw new BadInput(`${field}: must not be the email address`);
}

/** SUPERUSER_EMAIL and SUPERUSER_PASSWORD against the account rules, as start-up problems naming the variables. */
export function bootstrapSuperUserProblems(input: { email: string; password: string }): string[] {
  const problems: string[] = [];
  const collect = (check: () => void) => {
    try {
      check();
    } catch (e) {
      if (!(e instanceof BadInput)) throw e;
      problems.push(e.message);
    }
  };
  let email: NormalizedEmail = { email: input.email, key: input.email.trim().toLowerCase() };
  collect(() => {
    email = normalizeEmail(input.email, 'SUPERUSER_EMAIL');
  });
  collect(() => validatePassword(input.password, email, 'SUPERUSER_PASSWORD'));
  return problems;
}

export function validateDisplayName(input: string, field = 'display_name'): string {
  const name = String(input ?? '').trim().normalize('NFC').replace(/\s+/g, ' ');
  if (name.length < 1 || name.length > DISPLAY_NAME_MAX || /\p{Cc}/u.test(name)) {
    throw new BadInput(`${field}: must be 1 to ${DISPLAY_NAME_MAX} printable characters`);
  }
  return name;
}

/** Optional free text: null or empty clears it. */
export function optionalText(input: string | null, field: string, max: number): string | null {
  if (input === null) return null;
  const text = input.trim();
  if (!text) return null;
  if (text.length > max) throw new BadInput(`${field}: at most ${max} characters (got ${text.length})`);
  return text;
}

const ORCID = /^(\d{4})-(\d{4})-(\d{4})-(\d{3}[\dX])$/;

/** ISO 7064 MOD 11-2 check character of the first 15 digits of an ORCID iD. */
export function orcidCheckCharacter(digits: string): string {
  let total = 0;
  for (const d of digits) total = (total + Number(d)) * 2;
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? 'X' : String(result);
}

/** Accepts `0000-0002-1825-0097` or `https://orcid.org/0000-0002-1825-0097`; returns the bare iD. */
export function normalizeOrcid(input: string | null, field = 'orcid'): string | null {
  if (input === null || input.trim() === '') return null;
  const bare = input
    .trim()
    .replace(/^https?:\/\/(www\.)?orcid\.org\//i, '')
    .toUpperCase();
  const m = ORCID.exec(bare);
  if (!m) throw new BadInput(`${field}: expected an ORCID iD like 0000-0002-1825-0097`);
  const digits = (m[1] + m[2] + m[3] + m[4]).slice(0, 15);
  if (orcidCheckCharacter(digits) !== bare.at(-1)) throw new BadInput(`${field}: ${bare} fails the ORCID checksum (ISO 7064 MOD 11-2); check for a typo`);
  return bare;
}

export function validateLinks(input: string[], field = 'links'): string[] {
  if (input.length > LINKS_MAX) throw new BadInput(`${field}: at most ${LINKS_MAX} links (got ${input.length})`);
  return input.map((raw, i) => {
    const text = String(raw ?? '').trim();
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || text.length > LINK_MAX) {
      throw new BadInput(`${field}[${i}]: expected an http or https URL of at most ${LINK_MAX} characters`);
    }
    return url.toString();
  });
}

/** Readable suffix letters: no 0/o, 1/l/i. */
const TAG_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

/**
 * A scientist tag from a display name: ASCII-folded words joined by hyphens (at most three words of two or more
 * letters, 30 characters), then a four-character random suffix: "Santiago Ramón y Cajal" -> "santiago-ramon-cajal-7f3k".
 */
export function scientistTagFor(displayName: string, random: (max: number) => number = randomInt): string {
  const words = displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const meaningful = words.filter((w) => w.length > 1);
  let stem = '';
  for (const w of (meaningful.length ? meaningful : words).slice(0, 3)) {
    const next = stem ? `${stem}-${w}` : w;
    if (next.length > 30) break;
    stem = next;
  }
  if (!stem) stem = words[0]?.slice(0, 30) || 'scientist';
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += TAG_ALPHABET[random(TAG_ALPHABET.length)];
  return `${stem}-${suffix}`;
}

/** Why a SuperUser verifies an account: required, trimmed, 1 to VERIFICATION_REASON_MAX characters, kept with the verification. */
export function validateVerificationReason(input: unknown, field = 'reason'): string {
  const text = typeof input === 'string' ? input.trim() : '';
  if (!text) throw new BadInput(`${field}: say why this account is verified (e.g. "staff list of the Example lab, checked by phone"), 1 to ${VERIFICATION_REASON_MAX} characters`);
  if ([...text].length > VERIFICATION_REASON_MAX) throw new BadInput(`${field}: at most ${VERIFICATION_REASON_MAX} characters (got ${[...text].length})`);
  return text;
}
