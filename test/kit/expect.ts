import { expect } from 'vitest';

/** A REST error answer: the status, and a body of exactly `{"error": message}` (matching `message` when given). */
export function expectError(r: { status: number; body: unknown }, status: number, message?: RegExp): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body as object)).toEqual(['error']);
  if (message) expect((r.body as { error: string }).error).toMatch(message);
}

/** The message of the BadInput that `fn` throws (fails the test when it throws nothing or something else). */
export function badInputMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect((e as { extensions?: { code?: string } }).extensions?.code).toBe('BAD_USER_INPUT');
    return (e as Error).message;
  }
  throw new Error('expected a BadInput');
}
