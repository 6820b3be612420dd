import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a given secret with the expected one in constant time: SHA-256 both sides first, so lengths leak nothing either. */
export function secretMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
