import { Worker } from 'node:worker_threads';
import { isInProcess, type TestApp } from './app.js';

/** A CSV of `rows` terms in a ten-way tree, in the current import form (code,label,uri,parent_code). */
export function syntheticTermCsv(rows: number, prefix = 'T'): string {
  const lines = ['code,label,uri,parent_code'];
  for (let i = 0; i < rows; i++) {
    lines.push(`${prefix}${i},Synthetic term ${i} of a load test,http://example.org/terms/${prefix}${i},${i > 0 ? `${prefix}${Math.floor((i - 1) / 10)}` : ''}`);
  }
  return lines.join('\n');
}

export interface HeavyOutcome {
  name: string;
  status: number;
  ms: number;
}

async function timed(name: string, run: () => Promise<Response>): Promise<HeavyOutcome> {
  const started = performance.now();
  const res = await run();
  await res.arrayBuffer();
  return { name, status: res.status, ms: Math.round(performance.now() - started) };
}

/**
 * The requests that once stalled the whole service, started together: a maximal term validation by a signed-in
 * caller (every value unknown, so each needs suggestions), a large CSV import by a SuperUser, a 200-alias query and the largest query
 * the limits allow. Resolves with each one's status and duration.
 */
export function startHeavyRequests(t: TestApp, opts: HeavyOptions): Promise<HeavyOutcome[]> {
  return Promise.all(heavyRequests(t, opts).map((r) => timed(r.name, () => fetch(r.url, r.init))));
}

interface HeavyOptions {
  superuserToken: string;
  importRows?: number;
  validateTerms?: number;
  /** Names the queries' aliases and the import's vocabulary apart from another set's: `a` and load_test by default. */
  variant?: string;
}

/** Each heavy request, its body built. */
function heavyRequests(t: TestApp, opts: HeavyOptions): { name: string; url: string; init: { method: string; headers: Record<string, string>; body: string } }[] {
  if (isInProcess(t.url)) throw new Error('the heavy requests go over connections: start the app with { listen: true }');
  const json = { 'content-type': 'application/json' };
  const variant = opts.variant ?? '';
  const terms = Array.from({ length: opts.validateTerms ?? 10_000 }, (_, i) => `zzq unknown ${variant}value ${i} ${(i * 7919).toString(36)}`);
  const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `${variant || 'a'}${i}: ${field}`).join(' ')} }`;
  return [
    // Signed in: the largest validation is beyond what anonymous callers may send (GRAPHQL_MAX_LIST_BYTES_ANONYMOUS).
    {
      name: 'validate',
      url: `${t.url}/v1/ontology/terms/validate`,
      init: { method: 'POST', headers: { ...json, authorization: `Bearer ${opts.superuserToken}` }, body: JSON.stringify({ terms }) },
    },
    {
      name: 'import',
      url: `${t.url}/v1/ontology/import-csv?vocabulary=load_test${variant && `_${variant}`}`,
      init: { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${opts.superuserToken}` }, body: syntheticTermCsv(opts.importRows ?? 60_000) },
    },
    { name: '200 aliases', url: `${t.url}/graphql`, init: { method: 'POST', headers: json, body: JSON.stringify({ query: aliases(200, 'terms(limit: 1000) { items { id label } }') }) } },
    {
      name: 'largest allowed query',
      url: `${t.url}/graphql`,
      init: { method: 'POST', headers: json, body: JSON.stringify({ query: aliases(10, 'terms(limit: 1000) { total items { id code label synonyms } }') }) },
    },
  ];
}

/**
 * `startHeavyRequests` from a worker thread: sending 5 MB of bodies and reading megabytes of answers is the client's
 * work, which on the service's own thread would stall it and be counted against the service's responsiveness. The
 * bodies are built, and handed to the thread, before this resolves: `start()` only tells the thread to send them.
 * The thread runs at a lower priority, as the pool's do: the clients stand in for other machines.
 */
export async function heavyRequestsOffThread(t: TestApp, opts: HeavyOptions): Promise<{ start(): Promise<HeavyOutcome[]> }> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    // The clients stand in for other machines: their thread yields the cores to the service's threads.
    try { require('node:os').setPriority(Math.min(19, require('node:os').getPriority() + 10)); } catch {}
    const timed = async ({ name, url, init }) => {
      const started = performance.now();
      const res = await fetch(url, init);
      await res.arrayBuffer();
      return { name, status: res.status, ms: Math.round(performance.now() - started) };
    };
    parentPort.once('message', () => {
      Promise.all(workerData.map(timed)).then((outcomes) => parentPort.postMessage({ outcomes }), (e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
    });
    parentPort.postMessage({ ready: true });
  `;
  const worker = new Worker(code, { eval: true, workerData: heavyRequests(t, opts) });
  const next = () => new Promise<{ ready?: boolean; outcomes?: HeavyOutcome[]; error?: string }>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  try {
    await next();
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  return {
    async start() {
      try {
        const answer = next();
        worker.postMessage('go');
        const { outcomes, error } = await answer;
        if (error !== undefined) throw new Error(error);
        return outcomes!;
      } finally {
        await worker.terminate();
      }
    },
  };
}

/** Polls GET /health one request at a time until `until` settles; returns each answer's latency and status. */
export async function pollHealth(url: string, until: Promise<unknown>, pauseMs = 25): Promise<{ ms: number; status: number; at: number; body?: unknown }[]> {
  if (isInProcess(url)) throw new Error('pollHealth sends its requests over a connection: start the app with { listen: true }');
  let done = false;
  const stop = () => {
    done = true;
  };
  until.then(stop, stop);
  const samples: { ms: number; status: number; at: number; body?: unknown }[] = [];
  const first = performance.now();
  while (!done) {
    const started = performance.now();
    const res = await fetch(`${url}/health`);
    const body = await res.json();
    const ms = performance.now() - started;
    // The report is kept when it says something is wrong or came late, so a failure or a slow answer shows which component.
    samples.push({ ms, status: res.status, at: Math.round(started - first), ...(res.status === 200 && ms <= 200 ? {} : { body }) });
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  return samples;
}
