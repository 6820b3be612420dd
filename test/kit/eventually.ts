/**
 * Polls until `fn` returns a truthy value without throwing, and returns that value: for state that settles in the
 * background (a job finishing, a cache expiring, a socket closing). Fails after `timeoutMs` with `what` and the
 * last error or value, so a slow machine waits longer instead of failing a fixed sleep, and a fast one waits less.
 */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 10_000, intervalMs = 25, what = 'the condition' } = opts;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  let threw = false;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as NonNullable<T>;
      last = value;
      threw = false;
    } catch (err) {
      last = err;
      threw = true;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const detail = threw ? `last error: ${last instanceof Error ? last.message : String(last)}` : `last value: ${JSON.stringify(last)}`;
  throw new Error(`${what} did not happen within ${timeoutMs} ms (${detail})`, threw ? { cause: last } : undefined);
}

/**
 * The converse, for what must not happen: checks `fn` every `intervalMs` for `forMs` and fails, naming `what`, at
 * the first check that returns a falsy value or throws (a rolled-back write that must never appear).
 */
export async function consistently(
  fn: () => unknown | Promise<unknown>,
  opts: { forMs: number; intervalMs?: number; what?: string },
): Promise<void> {
  const { forMs, intervalMs = 100, what = 'the condition' } = opts;
  const until = Date.now() + forMs;
  for (;;) {
    let ok: unknown;
    try {
      ok = await fn();
    } catch (err) {
      throw new Error(`${what} stopped holding: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (!ok) throw new Error(`${what} stopped holding (got ${JSON.stringify(ok)})`);
    if (Date.now() >= until) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
