import Fastify from 'fastify';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import { Agent, request } from 'undici';
import { startTestApp } from '../test/kit/app.js';
import { createGateway } from '../gateway/compose.js';
import { bareFastify, goal, interleaved, measure, ratioOf, report } from './lib.js';

const SMALL_QUERY = '{ identityPing { subgraph status } ontologyPing { status } }';

/**
 * Whole-stack overhead: GET /health (three real store round trips), a small GraphQL query over two in-process
 * subgraphs, and a field through the REST layer, against a bare Fastify route in the same process and run. Then,
 * for comparison, the same query through Apollo Server and the gateway on a bare Fastify (no pipeline, no plugins:
 * what every query cost before the direct path), and the round trips one health check makes.
 */
export default async function platformBench(): Promise<void> {
  const bare = await bareFastify();
  // A generous bucket: the benchmark measures the pipeline, not the limiter's refusals.
  const t = await startTestApp({ RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000' }, { listen: true });
  const floor = await gatewayAlone(t.app.composition);
  const dispatcher = new Agent({ connections: 16 });
  const get = async (url: string) => {
    const r = await request(url, { dispatcher });
    await r.body.text();
    if (r.statusCode >= 400) throw new Error(`${url}: ${r.statusCode}`);
  };
  const gqlBody = JSON.stringify({ query: SMALL_QUERY });
  const post = async (url: string) => {
    const r = await request(url, { method: 'POST', body: gqlBody, headers: { 'content-type': 'application/json' }, dispatcher });
    await r.body.text();
    if (r.statusCode >= 400) throw new Error(`${url}: ${r.statusCode}`);
  };
  try {
    const opts = { rounds: 9, roundMs: 1000, concurrency: 8 };
    const {
      baseline,
      rows: [health, graphql, rest, alone],
    } = await interleaved({ name: 'bare Fastify GET /ok', fn: () => get(bare.url) }, [
      { name: 'GET /health (3 store round trips)', fn: () => get(`${t.url}/health`) },
      { name: 'POST /graphql (2 subgraphs, in-process)', fn: () => post(`${t.url}/graphql`) },
      { name: 'GET /v1/federation/ping (REST via sofa)', fn: () => get(`${t.url}/v1/federation/ping`) },
      { name: 'same query, Apollo + gateway alone', fn: () => post(floor.url) },
    ], opts);
    report(
      `workload: HTTP over loopback, keep-alive, ${opts.concurrency} concurrent callers, ${opts.rounds} interleaved rounds of ${opts.roundMs / 1000} s each, ` +
        `${t.app.stores.relational.kind} + ${t.app.stores.column.kind}`,
      baseline,
      [health, graphql, rest, alone],
    );
    goal('POST /graphql small query, ratio to bare Fastify', ratioOf(graphql, baseline), 0.4, { atLeast: true, unit: 'x' });
    console.log(
      `    bound: the query's plan is two root fetches from in-process subgraphs, run directly (gateway/direct/); Apollo Server and the gateway alone, ` +
        `without the pipeline, serve it at x${ratioOf(alone, baseline).toFixed(3)}`,
    );
    goal('GET /v1/federation/ping (REST), ratio to bare Fastify', ratioOf(rest, baseline), 0.4, { atLeast: true, unit: 'x' });
    goal('GET /health, ratio to bare Fastify', ratioOf(health, baseline), 0.3, { atLeast: true, unit: 'x' });
    const s = t.app.stores;
    const one = async (name: string, ping: () => Promise<void>) => (await measure(name, ping, { durationMs: 1000, concurrency: 1 })).p50;
    const [relational, column, objects] = [await one('relational', () => s.relational.ping()), await one('column', () => s.column.ping()), await one('objects', () => s.objects.ping())];
    console.log(
      `    bound: every answer comes from a check that ended after its request arrived (concurrent requests share one, and under load each ` +
        `check starts as the previous ends); alone, its round trips take ` +
        `${s.relational.kind} ${relational.toFixed(2)} ms, ${s.column.kind} ${column.toFixed(2)} ms, object directory ${objects.toFixed(2)} ms (p50), in parallel; ` +
        `the ${opts.concurrency} callers got ${health.rps.toFixed(0)} answers/s at p50 ${health.p50.toFixed(2)} ms`,
    );
  } finally {
    await dispatcher.close();
    await floor.close();
    await t.close();
    await bare.close();
  }
}

/** The composed gateway behind Apollo Server on a bare Fastify: what one GraphQL query costs without the service around it. */
async function gatewayAlone(composition: Parameters<typeof createGateway>[0]): Promise<{ url: string; close(): Promise<void> }> {
  const http = Fastify();
  const apollo = new ApolloServer({ gateway: createGateway(composition, {}), plugins: [ApolloServerPluginLandingPageDisabled()], csrfPrevention: false });
  await apollo.start();
  const context = async () => ({ requestId: 'bench', viewer: null, signal: new AbortController().signal, log: http.log });
  http.post('/graphql', fastifyApolloHandler(apollo, { context: context as never }));
  await http.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(http.server.address() as { port: number }).port}/graphql`,
    async close() {
      await http.close();
      await apollo.stop();
    },
  };
}
