import { describe, it, expect } from 'vitest';
import { recordedStore, snapshotText, statementNames } from '../../../test/kit/sql-recorder.js';
import { BenchmarkStore, type NewBenchmark } from './benchmark.store.js';

const CLUSTER = '0190f3a4-5b6c-7d8e-9f00-112233445566';
const RUN = '0190f3a4-5b6c-7d8e-9f00-112233445567';
const SINCE = new Date('2026-01-01T00:00:00Z');

const BENCHMARK: NewBenchmark = {
  id: '0190f3a4-5b6c-7d8e-9f00-aabbccddeeff', runId: RUN, clusterId: CLUSTER, operation: 'datasets', requests: 100, concurrency: 4, errors: 0,
  minMs: 3.1, p50Ms: 5.2, p99Ms: 20.4, maxMs: 31, meanMs: 6.3, requestsPerSec: 150.2, startedAt: SINCE, durationMs: 666, ourVersion: '1.4.0',
  theirVersion: '1.3.2', actorId: null,
};

const recorder = () => recordedStore((db) => new BenchmarkStore(db));

describe(BenchmarkStore.name, () => {
  it('keeps the SQL of its important queries as reviewed (store/__sql__/benchmark.store.sql; vitest -u rewrites it)', async () => {
    const { store, statements } = recorder();
    await store.insert([BENCHMARK, { ...BENCHMARK, id: '0190f3a4-5b6c-7d8e-9f00-aabbccddeef0', operation: 'neurons' }]);
    await store.list({ clusterId: CLUSTER, operation: 'datasets', since: SINCE }, 50, 0);
    await store.list({}, 50, 0);
    await store.aggregate({ clusterId: CLUSTER, since: SINCE }, 'day');
    await expect(snapshotText(statements)).toMatchFileSnapshot('./__sql__/benchmark.store.sql');
  });

  it('names every statement after its method', async () => {
    const { store, statements } = recorder();
    await store.insert([BENCHMARK]);
    await store.aggregate({}, 'hour');
    expect(statementNames(statements)).toEqual(['BenchmarkStore.insert', 'BenchmarkStore.aggregate']);
  });
});
