import { describe, it, expect } from 'vitest';
import { sharedHealthCheck } from '../../gateway/health.js';
import type { Stores } from '../../lib/stores.js';
import { consistently } from '../kit/eventually.js';

/** Stores whose relational ping waits until the test lets it answer, counting the checks. */
function stores() {
  const pending: (() => void)[] = [];
  let checks = 0;
  let alive = true;
  const s = {
    relational: {
      // Answers when the test says, as the component is then: one that dies during a round trip fails it.
      ping: () => {
        checks++;
        return new Promise<void>((resolve, reject) => pending.push(() => (alive ? resolve() : reject(new Error('gone')))));
      },
    },
    column: { ping: async () => {} },
    objects: { ping: async () => {} },
    search: { kind: 'none' },
  } as unknown as Stores;
  return {
    stores: s,
    checks: () => checks,
    answer: () => pending.splice(0).forEach((f) => f()),
    kill: () => (alive = false),
  };
}

describe(sharedHealthCheck.name, () => {
  it('gives the requests that arrive during a check its answer, and starts a new check for later ones', async () => {
    const s = stores();
    const health = sharedHealthCheck(s.stores, 1000);
    const first = health();
    s.answer();
    expect((await first).status).toBe('healthy');

    // A request after the check ended never gets its answer: a component that died since is reported.
    s.kill();
    const second = health();
    expect(second).not.toBe(first);
    expect(s.checks()).toBe(2);
    s.answer();
    expect((await second).components.relational_db.status).toBe('error');
  });

  it('while polls arrive faster than checks end, starts the next check as one ends; a check nobody joined ends that', async () => {
    const s = stores();
    const health = sharedHealthCheck(s.stores, 1000);
    const first = health();
    expect(health()).toBe(first);
    expect(s.checks()).toBe(1);
    s.answer();
    expect((await first).status).toBe('healthy');
    // Someone joined the first: the next is already under way, and a poll arriving now joins it.
    expect(s.checks()).toBe(2);
    s.kill();
    const next = health();
    expect(next).not.toBe(first);
    s.answer();
    // The component died before this poll's check ended: it is reported.
    expect((await next).components.relational_db.status).toBe('error');
    // That check was joined too, so one more runs; nobody joins it, and the chain ends.
    expect(s.checks()).toBe(3);
    s.answer();
    await consistently(() => s.checks() === 3, { forMs: 50, intervalMs: 5, what: 'no further check started' });
    const later = health();
    expect(s.checks()).toBe(4);
    s.answer();
    expect((await later).status).toBe('degraded');
  });

  it('starts a new check after a failed one as well', async () => {
    const s = stores();
    const health = sharedHealthCheck(s.stores, 1000);
    s.kill();
    const failed = health();
    s.answer();
    expect((await failed).status).toBe('degraded');
    const next = health();
    expect(next).not.toBe(failed);
    s.answer();
    await next;
    expect(s.checks()).toBe(2);
  });
});

describe('sharedHealthCheck and request scopes', () => {
  it('runs each check outside the scope of the request that started it', async () => {
    const { runInRequestScope, currentRequestScope } = await import('../../lib/request-scope.js');
    let seen: unknown = 'not called';
    const s = {
      relational: { ping: async () => void (seen = currentRequestScope()) },
      column: { ping: async () => {} },
      objects: { ping: async () => {} },
      search: { kind: 'none' },
    } as unknown as Stores;
    const health = sharedHealthCheck(s, 1000);
    const aborted = new AbortController();
    aborted.abort();
    await runInRequestScope({ requestId: 'first', signal: aborted.signal }, () => health());
    expect(seen).toBeUndefined();
  });
});
