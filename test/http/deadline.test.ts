import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../kit/app.js';
import { consistently } from '../kit/eventually.js';
import { createUser } from '../kit/users.js';
import { syntheticTermCsv } from '../kit/heavy-requests.js';

describe('the request deadline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REQUEST_TIMEOUT_MS: '1000', RATE_LIMIT_BURST: '100000', RATE_LIMIT_REFILL_PER_SEC: '100000' });
  });
  afterAll(async () => t?.close());

  it('answers 408 when a 60,000-row import outlives the timeout, and the import stops and leaves nothing behind', async () => {
    const su = await createUser(t, { accountType: 'SUPERUSER' });
    const res = await call(t.url, 'POST', '/v1/ontology/import-csv?vocabulary=deadline_test', {
      token: su.accessToken,
      headers: { 'content-type': 'text/csv' },
      body: syntheticTermCsv(60_000, 'D'),
    });
    expect(res.status).toBe(408);
    expect(res.body).toEqual({ error: 'the request exceeded the timeout of 1000 ms' });
    expect(res.headers.get('x-request-id')).toBeTruthy();

    // The work behind the request stops at its next statement and its transaction rolls back: the vocabulary never
    // appears, however long we look.
    await consistently(
      async () => {
        const vocabularies = await call(t.url, 'GET', '/v1/ontology/vocabularies');
        expect(vocabularies.status).toBe(200);
        return !JSON.stringify(vocabularies.body).includes('deadline_test');
      },
      { forMs: 5_000, intervalMs: 500, what: 'the timed-out import leaving no vocabulary' },
    );
    const health = await call(t.url, 'GET', '/health');
    expect(health.status).toBe(200);
  });
});
