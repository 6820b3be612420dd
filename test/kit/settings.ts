import type { EnvName } from '../../lib/config.js';

// What the test runs read from the environment (scripts/test.sh sets most of it): the servers of the server-mode
// run and the sizes of the generated tests. The service reads its own variables only in lib/config.ts.

/** The variables a test run passes on to the server mode (engines only). */
export function engineEnvFromProcess(): Partial<Record<EnvName, string>> {
  const out: Partial<Record<EnvName, string>> = {};
  for (const k of ['DATABASE_URL', 'CLICKHOUSE_URL', 'CLICKHOUSE_USER', 'CLICKHOUSE_PASSWORD', 'CLICKHOUSE_CLUSTER'] as const) {
    if (process.env[k]) out[k] = process.env[k];
  }
  return out;
}

/** The Redis server the tests of shared limits use: TEST_REDIS_URL, by default the local one on port 6379. */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
}

/** The two-shard ClickHouse cluster scripts/test.sh starts for the cluster tests; no URL means they are skipped. */
export function testClickhouseCluster(): { url?: string; cluster: string } {
  return { url: process.env.TEST_CLICKHOUSE_CLUSTER_URL || undefined, cluster: process.env.TEST_CLICKHOUSE_CLUSTER || 'neurodata_test' };
}

/** The Typesense node the search contract tests run against (TEST_TYPESENSE_URL, else TYPESENSE_URL); null skips them. */
export function testTypesense(): { url: string; apiKey: string } | null {
  const url = process.env.TEST_TYPESENSE_URL || process.env.TYPESENSE_URL;
  if (!url) return null;
  return { url, apiKey: process.env.TEST_TYPESENSE_API_KEY || process.env.TYPESENSE_API_KEY || 'xyz' };
}

/**
 * The generated-request test (test/http/fuzz.test.ts): FUZZ_SEED picks the requests (a failure prints the seed
 * that makes it again), FUZZ_REQUESTS_PER_OPERATION how many each account class sends to each operation.
 */
export function testFuzzSettings(): { seed: number; requestsPerOperation: number } {
  const seed = Number(process.env.FUZZ_SEED ?? 20_261_127);
  const perOperation = Number(process.env.FUZZ_REQUESTS_PER_OPERATION ?? 3);
  return { seed: Number.isSafeInteger(seed) ? seed : 20_261_127, requestsPerOperation: Number.isSafeInteger(perOperation) && perOperation > 0 ? perOperation : 3 };
}

/**
 * Where each test file's cost is appended as a JSON line (TEST_COST_LOG): its worker process's CPU time and its
 * wall time, for deciding which files are worth making cheaper. Unset: nothing is written.
 */
export function testCostLog(): string | undefined {
  return process.env.TEST_COST_LOG || undefined;
}

/** The engine set whose run of the full suite this is (TEST_ENGINE_SET, set by scripts/test.sh), if it is one. */
export function testEngineSet(): 'embedded' | 'server' | undefined {
  const set = process.env.TEST_ENGINE_SET;
  return set === 'embedded' || set === 'server' ? set : undefined;
}
