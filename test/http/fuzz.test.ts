import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { call, type TestApp } from '../kit/app.js';
import { FLAVOURS, describeRequest, generateRequest, rng, seedOf, sendRaw, type FuzzPools } from '../kit/request-fuzzer.js';
import { FUZZ_CALLERS, startFuzzApp, type FuzzFixture } from '../kit/fuzz-fixtures.js';
import { testFuzzSettings } from '../kit/settings.js';

type Json = Record<string, any>;

/** Reads first, then writes, then deletions: a deletion cannot leave the reads without their fixtures. */
const PHASES = [['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']];

describe('generated requests from /openapi.json', () => {
  const settings = testFuzzSettings();
  let t: TestApp;
  let doc: Json;
  let pools: FuzzPools;
  let login: FuzzFixture['login'];

  beforeAll(async () => {
    ({ t, pools, login } = await startFuzzApp({ listen: true }));
    doc = (await call(t.url, 'GET', '/openapi.json')).body;
  });
  afterAll(async () => t?.close());

  it(`answers no generated request with a 5xx (FUZZ_SEED=${settings.seed}, ${settings.requestsPerOperation} per operation and account class)`, async () => {
    console.log(`fuzz: FUZZ_SEED=${settings.seed} FUZZ_REQUESTS_PER_OPERATION=${settings.requestsPerOperation}; pools ${JSON.stringify(Object.fromEntries(Object.entries(pools).map(([k, v]) => [k, v.length])))}`);
    const operations = Object.entries<Json>(doc.paths).flatMap(([path, ops]) => Object.entries<Json>(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const slowest: { ms: number; what: string }[] = [];
    for (const methods of PHASES) {
      for (const caller of FUZZ_CALLERS) {
        // Logged in again for each phase: a generated logout or password change must not leave the caller anonymous.
        const token = await login(caller.name);
        for (const { path, method, op } of operations.filter((o) => methods.includes(o.method))) {
          for (let i = 0; i < settings.requestsPerOperation; i++) {
            const seed = seedOf(settings.seed, method, path, caller.name, i);
            // The first request of each caller mixes every kind of hostility; the others take one kind each, in turn
            // over the callers, so each operation meets each kind from a caller allowed to run it.
            const flavour = i === 0 ? null : FLAVOURS[(i - 1 + FUZZ_CALLERS.indexOf(caller)) % FLAVOURS.length];
            const req = generateRequest({ doc, r: rng(seed), pools, flavour }, method, path, op);
            if (token) req.headers.authorization = `Bearer ${token}`;
            sent++;
            let status: number;
            let text: string;
            const started = performance.now();
            try {
              ({ status, text } = await sendRaw(t.url, req, 70_000));
              slowest.push({ ms: Math.round(performance.now() - started), what: `${caller.name} ${describeRequest(req).slice(0, 160)} -> ${status}` });
              slowest.sort((a, b) => b.ms - a.ms).splice(8);
            } catch (e) {
              failures.push(`[${caller.name}, request seed ${seed}] ${describeRequest(req)} -> no answer: ${(e as Error).message}`);
              continue;
            }
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status < 500) continue;
            const line = `[${caller.name}, request seed ${seed}] ${describeRequest(req)} -> ${status} ${text.slice(0, 200)}`.replace(/\n/g, ' ');
            failures.push(line);
          }
        }
      }
    }
    console.log(`fuzz: ${sent} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    console.log(`fuzz: slowest requests\n  ${slowest.map((s) => `${s.ms} ms ${s.what}`).join('\n  ')}`);
    expect(failures, `FUZZ_SEED=${settings.seed}: ${failures.length} of ${sent} generated requests answered 5xx`).toEqual([]);
  }, 600_000);
});
