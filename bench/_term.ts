import { Agent, request } from 'undici';
import { startTestApp } from '../test/kit/app.js';
import { bareFastify, interleaved, report, ratioOf } from './lib.js';
const t = await startTestApp({ RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000' }, { listen: true });
const bare = await bareFastify();
const dispatcher = new Agent({ connections: 16 });
const page = JSON.parse(await (await request(`${t.url}/v1/ontology/terms?limit=1`, { dispatcher })).body.text());
const id = page.items[0].id;
const { baseline, rows } = await interleaved({ name: 'bare', fn: async () => (await request(bare.url, { dispatcher })).body.text() }, [
  { name: 'term', fn: async () => (await request(`${t.url}/v1/ontology/terms/${id}`, { dispatcher })).body.text() },
  { name: 'ping', fn: async () => (await request(`${t.url}/v1/federation/ping`, { dispatcher })).body.text() },
  { name: 'health', fn: async () => (await request(`${t.url}/health`, { dispatcher })).body.text() },
], { rounds: 6, roundMs: 1000, concurrency: 8 });
report('quick', baseline, rows);
await dispatcher.close(); await t.close(); await bare.close();
process.exit(0);
