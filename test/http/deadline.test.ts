import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { createUser } from '../kit/users.js';
import { syntheticTermCsv } from '../kit/heavy-requests.js';

describe('the request deadline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REQUEST_TIMEOUT_MS: '1000', RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000' }, { listen: true });
  });
  afterAll(async () => t?.close());

  it('answers 408 when a 60,000-row import outlives the timeout, and the import stops and leaves nothing behind', async () => {
    const su = await createUser(t, { accountType: 'SUPERUSER' });
    const res = await fetch(`${t.url}/v1/ontology/import-csv?vocabulary=deadline_test`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${su.accessToken}` },
      body: syntheticTermCsv(60_000, 'D'),
    });
    expect(res.status).toBe(408);
    expect(await res.json()).toEqual({ error: 'the request exceeded the timeout of 1000 ms' });
    expect(res.headers.get('x-request-id')).toBeTruthy();

    // The work behind the request stops at its next statement and its transaction rolls back: the vocabulary never
    // appears, however long we look.
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const vocabularies = await call(t.url, 'GET', '/v1/ontology/vocabularies');
      expect(vocabularies.status).toBe(200);
      expect(JSON.stringify(vocabularies.body)).not.toContain('deadline_test');
    }
    const health = await call(t.url, 'GET', '/health');
    expect(health.status).toBe(200);
  });
});
