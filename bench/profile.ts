import 'reflect-metadata';
import { Session } from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { writeFile } from 'node:fs/promises';
import { startTestApp } from '../test/kit/app.js';
import { bareFastify } from './lib.js';

/**
 * Where the request thread's time goes on one kind of request: starts the service (embedded engines, or the
 * servers DATABASE_URL and CLICKHOUSE_URL name), sends it that request from 8 keep-alive callers in a worker thread
 * (so the client's own work is not in the profile), profiles the request thread with the inspector for the duration,
 * and prints the sampled time by the package or directory it was spent in, and the inclusive share of the request
 * path's main stages.
 *
 *   npx tsx bench/profile.ts bare|graphql|rest|health|term|largest|validate [seconds] [--out file.cpuprofile] [--functions N] [--after bench]
 *
 * `--functions 30` also lists the 30 functions with the most self time; `--after ontology` first runs that benchmark in
 * the same process.
 */

const SMALL_QUERY = '{ identityPing { subgraph status } ontologyPing { status } }';

interface Target {
  /** Another server than the service (the bare Fastify baseline). */
  base?: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  concurrency: number;
}

const args = process.argv.slice(2);
const name = args[0] ?? 'graphql';
const seconds = Number(args.find((a, i) => i > 0 && /^\d+$/.test(a) && args[i - 1] !== '--functions') ?? 8);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args[outIndex + 1] : undefined;
const functionsIndex = args.indexOf('--functions');
const functions = functionsIndex >= 0 ? Number(args[functionsIndex + 1]) : 0;
const afterIndex = args.indexOf('--after');
const after = afterIndex >= 0 ? args[afterIndex + 1] : undefined;


async function targetOf(kind: string): Promise<Target> {
  switch (kind) {
    case 'bare': {
      // The baseline of the platform goals: what a request costs a bare Fastify route in this process.
      const bare = await bareFastify();
      return { method: 'GET', path: '', base: bare.url, concurrency: 8 };
    }
    case 'graphql':
      return { method: 'POST', path: '/graphql', body: JSON.stringify({ query: SMALL_QUERY }), concurrency: 8 };
    case 'rest':
      return { method: 'GET', path: '/v1/federation/ping', concurrency: 8 };
    case 'health':
      return { method: 'GET', path: '/health', concurrency: 8 };
    case 'term': {
      const page = (await (await fetch(`${t.url}/v1/ontology/terms?limit=1`)).json()) as { items: { id: string }[] };
      return { method: 'GET', path: `/v1/ontology/terms/${page.items[0].id}`, concurrency: 8 };
    }
    case 'largest':
      // The largest query the limits allow: ten pages of 1,000 terms, read, completed and serialised.
      return {
        method: 'POST',
        path: '/graphql',
        body: JSON.stringify({ query: `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: terms(limit: 1000) { total items { id code label synonyms } }`).join(' ')} }` }),
        concurrency: 1,
      };
    case 'validate': {
      const page = (await (await fetch(`${t.url}/v1/ontology/terms?limit=1000`)).json()) as { items: { label: string; code: string }[] };
      const values = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? page.items[i % page.items.length].label : page.items[i % page.items.length].code));
      return { method: 'POST', path: '/v1/ontology/terms/validate', body: JSON.stringify({ terms: values }), concurrency: 1 };
    }
    default:
      throw new Error(`unknown target ${kind}: bare, graphql, rest, health, term, largest or validate`);
  }
}

/** Sends the target's request from `concurrency` callers for `seconds`, in a worker thread; returns how many were answered. */
async function load(target: Target, secs: number): Promise<number> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    const { Agent, request } = require('undici');
    const { url, method, body, concurrency, ms } = workerData;
    const dispatcher = new Agent({ connections: 16 });
    let n = 0;
    const end = Date.now() + ms;
    const caller = async () => {
      while (Date.now() < end) {
        const r = await request(url, { method, body, headers: { 'content-type': 'application/json' }, dispatcher });
        await r.body.text();
        if (r.statusCode >= 400) throw new Error(url + ': ' + r.statusCode);
        n++;
      }
    };
    Promise.all(Array.from({ length: concurrency }, caller)).then(() => parentPort.postMessage(n), (e) => parentPort.postMessage(String(e)));
  `;
  const worker = new Worker(code, { eval: true, workerData: { url: `${target.base ?? t.url}${target.path}`, method: target.method, body: target.body, concurrency: target.concurrency, ms: secs * 1000 } });
  const result = await new Promise<number | string>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  await worker.terminate();
  if (typeof result === 'string') throw new Error(result);
  return result;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; hitCount?: number; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/** What a frame's file belongs to: an npm package, a directory of this project, or a part of Node or V8. */
function categoryOf(frame: { functionName: string; url: string }): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) {
    const m = /^node:(?:internal\/)?([a-z_]+)/.exec(url);
    return `node:${m?.[1] ?? 'other'}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/work\/[^/]+\/([^/]+)\//.exec(url) ?? /file:\/\/.*?\/(gateway|rest-compat|lib|subgraphs|schema|web|test|bench)\//.exec(url);
  return own ? `./${own[1]}` : url;
}

/** Request-path stages, by the functions that run them: their inclusive share of the sampled time. */
const STAGES: [string, RegExp][] = [
  ['Apollo Server request pipeline (processGraphQLRequest)', /^processGraphQLRequest$/],
  ['gateway plan execution (executeQueryPlan)', /^executeQueryPlan$/],
  ['gateway result shaping (computeResponse)', /^computeResponse$/],
  ['direct execution (executeDirect)', /^executeDirect$/],
  ['sofa router dispatch (fetch)', /^(handleRequest|fetchFn)$/],
  ['subgraph execution (graphql execute)', /^execute$/],
  ['JSON.stringify', /^stringify$/],
];

function summarise(profile: CpuProfile, requests: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = new Map<number, number>();
  for (const s of profile.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
  const total = profile.samples.length;
  const idle = [...hits].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, h]) => a + h, 0);
  const busy = total - idle;
  const usPerSample = (profile.endTime - profile.startTime) / total;
  console.log(`  request thread busy ${((busy / total) * 100).toFixed(0)}% of the time, ${((busy * usPerSample) / Math.max(1, requests)).toFixed(0)} µs per request`);
  const bySelf = new Map<string, number>();
  for (const [id, h] of hits) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const cat = categoryOf(node.callFrame);
    bySelf.set(cat, (bySelf.get(cat) ?? 0) + h);
  }
  console.log('  self time by where it was spent (share of the busy time):');
  for (const [cat, h] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`    ${((h / busy) * 100).toFixed(1).padStart(5)}%  ${cat}`);
  if (functions > 0) {
    const byFunction = new Map<string, number>();
    for (const [id, h] of hits) {
      const { functionName, url } = byId.get(id)!.callFrame;
      if (functionName === '(idle)') continue;
      const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules\/)?/, '')}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + h);
    }
    console.log('  functions with the most self time:');
    for (const [fn, h] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, functions)) console.log(`    ${((h / busy) * 100).toFixed(1).padStart(5)}%  ${fn}`);
  }
  console.log('  inclusive time of request-path stages (share of the busy time):');
  for (const [label, re] of STAGES) {
    let h = 0;
    for (const [id, count] of hits) {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        if (re.test(byId.get(cur)!.callFrame.functionName)) {
          h += count;
          break;
        }
      }
    }
    if (h) console.log(`    ${((h / busy) * 100).toFixed(1).padStart(5)}%  ${label}`);
  }
}

if (after) {
  // A process that has served other work first: that benchmark runs in this process before the profiled service starts.
  const mod = (await import(`./${after}.bench.ts`)) as { default: () => Promise<void> };
  await mod.default();
}
const t = await startTestApp({ RATE_LIMIT_BURST: '100000000', RATE_LIMIT_REFILL_PER_SEC: '100000000', LOG_LEVEL: 'warn' }, { listen: true });
try {
  const target = await targetOf(name);
  // Warm-up outside the profile: plans, prepared statements and caches are made once.
  await load(target, 1);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const requests = await load(target, seconds);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  if (out) await writeFile(out, JSON.stringify(profile));
  console.log(`${name}: ${target.method} ${target.path}, ${target.concurrency} callers, ${seconds} s, ${t.app.stores.relational.kind} + ${t.app.stores.column.kind}: ${requests} requests (${(requests / seconds).toFixed(0)}/s)`);
  summarise(profile as unknown as CpuProfile, requests);
} finally {
  await t.close();
}
process.exit(0);
