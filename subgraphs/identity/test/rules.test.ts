import { describe, it, expect } from 'vitest';
import { normalizeEmail, normalizeOrcid, orcidCheckCharacter, scientistTagFor, validateLinks, validatePassword, validateVerificationReason } from '../account.rules.js';
import { lockDurationMs } from '../password-throttle.service.js';
import { paserkPublicId } from '../token.keys.js';

describe('account rules', () => {
  it('trims the email and lower-cases its domain, keeping the local part; the key is fully lower-cased', () => {
    expect(normalizeEmail('  Ramon.Cajal@Example.ES ')).toEqual({ email: 'Ramon.Cajal@example.es', key: 'ramon.cajal@example.es' });
  });

  it('refuses addresses without a local part, a dotted domain, or with spaces', () => {
    for (const bad of ['', 'plain', '@example.org', 'a@b', 'a b@example.org', 'a@exa mple.org', 'a@-example.org']) {
      expect(() => normalizeEmail(bad), bad).toThrow(/^email:/);
    }
  });

  it('counts password length in characters and refuses the email as password', () => {
    const email = normalizeEmail('x@example.org');
    expect(() => validatePassword('🧠🧠🧠🧠🧠🧠🧠🧠', email)).not.toThrow();
    expect(() => validatePassword('🧠🧠🧠🧠🧠🧠🧠', email)).toThrow(/got 7/);
    expect(() => validatePassword(' X@Example.org ', email)).toThrow(/email/);
  });

  it('requires a verification reason of 1 to 500 characters, trimmed, counted in characters', () => {
    expect(validateVerificationReason('  on the lab roster ')).toBe('on the lab roster');
    expect(validateVerificationReason('🧠'.repeat(500))).toHaveLength(1000);
    for (const bad of [undefined, null, '', '   ', 42]) expect(() => validateVerificationReason(bad), String(bad)).toThrow(/^reason: say why/);
    expect(() => validateVerificationReason('x'.repeat(501))).toThrow(/at most 500 characters \(got 501\)/);
  });

  it('validates ORCID iDs with the ISO 7064 MOD 11-2 check character', () => {
    expect(orcidCheckCharacter('000000021825009')).toBe('7');
    expect(orcidCheckCharacter('000000021694233')).toBe('X');
    expect(normalizeOrcid('0000-0002-1825-0097')).toBe('0000-0002-1825-0097');
    expect(normalizeOrcid('https://orcid.org/0000-0002-1694-233x')).toBe('0000-0002-1694-233X');
    expect(() => normalizeOrcid('0000-0002-1825-0098')).toThrow(/checksum/);
    expect(() => normalizeOrcid('0000-0002-1825')).toThrow(/expected an ORCID iD/);
    expect(normalizeOrcid('')).toBeNull();
  });

  it('accepts only http(s) links', () => {
    expect(validateLinks(['https://example.org/a', 'http://lab.example.edu'])).toEqual(['https://example.org/a', 'http://lab.example.edu/']);
    expect(() => validateLinks(['ftp://example.org'])).toThrow(/links\[0\]/);
    expect(() => validateLinks(['https://ok.example', 'javascript:alert(1)'])).toThrow(/links\[1\]/);
  });

  it('builds readable scientist tags from the display name', () => {
    const zeros = () => 0;
    expect(scientistTagFor('Santiago Ramón y Cajal', zeros)).toBe('santiago-ramon-cajal-2222');
    expect(scientistTagFor('李 明', zeros)).toBe('scientist-2222');
    expect(scientistTagFor('Camillo Golgi')).toMatch(/^camillo-golgi-[2-9a-z]{4}$/);
  });

  it('locks logins from the fifth failure for 15 s, doubling up to 15 minutes', () => {
    expect([4, 5, 6, 7, 20].map(lockDurationMs)).toEqual([0, 15_000, 30_000, 60_000, 900_000]);
  });

  it('computes PASERK k4.pid like the PASERK test vectors', () => {
    expect(paserkPublicId(`k4.public.${Buffer.alloc(32).toString('base64url')}`)).toBe('k4.pid.S_XQmeEwHbbvRmiyfXfHYpLGjXGzjTRSDoT1YtTakWFE');
    const key = Buffer.from('707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f', 'hex').toString('base64url');
    expect(paserkPublicId(`k4.public.${key}`)).toBe('k4.pid.9ShR3xc8-qVJ_di0tc9nx0IDIqbatdeM2mqLFBJsKRHs');
  });
});
