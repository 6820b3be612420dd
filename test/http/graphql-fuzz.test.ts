import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { call, type TestApp } from '../kit/app.js';
import { rng, seedOf, type FuzzPools } from '../kit/request-fuzzer.js';
import { FUZZ_CALLERS, startFuzzApp, type FuzzFixture } from '../kit/fuzz-fixtures.js';
import { generateOperation, rootFields } from '../kit/graphql-fuzzer.js';
import { testFuzzSettings } from '../kit/settings.js';

type Json = Record<string, any>;

/**
 * Generated operations on every root field of the API schema (test/kit/graphql-fuzzer.ts), beside the generated
 * REST requests of fuzz.test.ts: whatever the arguments, the answer is data or a refusal with its code, never a
 * 5xx nor INTERNAL_SERVER_ERROR.
 */
describe('generated GraphQL operations over the API schema', () => {
  const settings = testFuzzSettings();
  let t: TestApp;
  let pools: FuzzPools;
  let login: FuzzFixture['login'];

  beforeAll(async () => {
    ({ t, pools, login } = await startFuzzApp());
    // An empty version too: GraphQL takes it as a value where REST has no such path.
    pools.version = [...(pools.version ?? []), ''];
  });
  afterAll(async () => t?.close());

  it(`answers no generated operation with a 5xx or INTERNAL_SERVER_ERROR (FUZZ_SEED=${settings.seed}, ${settings.requestsPerOperation} mixed and one per argument, per root field and account class)`, async () => {
    const fields = rootFields(t.app.composition.apiSchema);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const slowest: { ms: number; what: string }[] = [];
    for (const phase of ['query', 'mutation'] as const) {
      for (const caller of FUZZ_CALLERS) {
        // Logged in again for each phase: a generated logout or password change must not leave the caller anonymous.
        const token = await login(caller.name);
        for (const { kind, field } of fields.filter((f) => f.kind === phase)) {
          // Anything goes in the first requests; then each argument in turn gets a wrong or edge value while the
          // others fit, so that a refusal of one argument does not hide what another one does.
          const mixed = settings.requestsPerOperation;
          for (let i = 0; i < mixed + field.args.length; i++) {
            const seed = seedOf(settings.seed, 'graphql', field.name, caller.name, i);
            const op = generateOperation(rng(seed), kind, field, pools, i < mixed ? undefined : field.args[i - mixed]!.name);
            sent++;
            const what = `[${caller.name}, seed ${seed}] ${op.query.slice(0, 400)}${op.variables ? ` variables ${JSON.stringify(op.variables).slice(0, 300)}` : ''}`;
            let r: { status: number; body: any };
            const started = performance.now();
            try {
              r = await call(t.url, 'POST', '/graphql', { body: op, token });
              slowest.push({ ms: Math.round(performance.now() - started), what: `${caller.name} ${field.name} -> ${r.status}` });
              slowest.sort((a, b) => b.ms - a.ms).splice(8);
            } catch (e) {
              failures.push(`${what} -> ${(e as Error).message.slice(0, 300)}`);
              continue;
            }
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            const internal = (r.body?.errors ?? []).filter((e: Json) => !e.extensions?.code || e.extensions.code === 'INTERNAL_SERVER_ERROR');
            if (r.status >= 500 || internal.length) failures.push(`${what} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
          }
        }
      }
    }
    console.log(`graphql fuzz: ${sent} operations over ${fields.length} root fields; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    console.log(`graphql fuzz: slowest operations\n  ${slowest.map((x) => `${x.ms} ms ${x.what}`).join('\n  ')}`);
    expect(failures, `FUZZ_SEED=${settings.seed}: ${failures.length} of ${sent} generated operations answered a fault`).toEqual([]);
  }, 600_000);
});
