import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { startTestApp } from '../lib/testkit/app.js';
import { measure, report } from './lib.js';

/**
 * Whole-stack overhead: GET /health (three real store round trips), a small GraphQL query through the gateway,
 * and the same field through the REST layer, against a bare Fastify route in the same process and run.
 */
export default async function platformBench(): Promise<void> {
  const bare = Fastify();
  bare.get('/ok', async () => ({ ok: true }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
  // A generous bucket: the benchmark measures the pipeline, not the limiter's refusals.
  const t = await startTestApp({ RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000' });
  const dispatcher = new Agent({ connections: 16 });
  const get = async (url: string) => {
    const r = await request(url, { dispatcher });
    await r.body.text();
    if (r.statusCode >= 400) throw new Error(`${url}: ${r.statusCode}`);
  };
  const gqlBody = JSON.stringify({ query: '{ identityPing { subgraph status } ontologyPing { status } }' });
  const post = async (url: string) => {
    const r = await request(url, { method: 'POST', body: gqlBody, headers: { 'content-type': 'application/json' }, dispatcher });
    await r.body.text();
    if (r.statusCode >= 400) throw new Error(`${url}: ${r.statusCode}`);
  };
  try {
    const opts = { durationMs: 4000, concurrency: 8 };
    const baseline = await measure('bare Fastify GET /ok', () => get(`${bareUrl}/ok`), opts);
    const rows = [
      await measure('GET /health (3 store round trips)', () => get(`${t.url}/health`), opts),
      await measure('POST /graphql (2 subgraphs, in-process)', () => post(`${t.url}/graphql`), opts),
      await measure('GET /v1/federation/ping (REST via sofa)', () => get(`${t.url}/v1/federation/ping`), opts),
    ];
    report(`workload: HTTP over loopback, keep-alive, ${opts.concurrency} concurrent callers, ${opts.durationMs / 1000} s each, embedded engines`, baseline, rows);
  } finally {
    await dispatcher.close();
    await t.close();
    await bare.close();
  }
}
