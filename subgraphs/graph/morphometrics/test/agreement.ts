import { expect } from 'vitest';

/** Comparison with the reference script's values, shared by the engine's and the route's tests. */

/** Keys whose values are counts, orders or ids: equal exactly. Every other number agrees within 1e-9. */
const EXACT = /^(n_.*|max_branch_order|strahler_order|type|first_id|root_id|crossings)$/;

export function expectAgrees(actual: unknown, expected: unknown, path: string, exact = false): void {
  if (expected === null || typeof expected === 'string' || typeof expected === 'boolean') {
    expect(actual, path).toBe(expected);
  } else if (typeof expected === 'number') {
    expect(typeof actual, path).toBe('number');
    if (exact) expect(actual, path).toBe(expected);
    else expect(Math.abs((actual as number) - expected), path).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, path).toBe(expected.length);
    expected.forEach((e, i) => expectAgrees((actual as unknown[])[i], e, `${path}[${i}]`, exact));
  } else {
    const a = actual as Record<string, unknown>;
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(expected as object).sort());
    for (const [k, e] of Object.entries(expected as object)) expectAgrees(a[k], e, `${path}.${k}`, EXACT.test(k));
  }
}
