// What the benchmarks read from the environment: their sizes and the servers to use. The service reads its own
// variables only in lib/config.ts; lib/config.test.ts lets this file read the environment too.

/**
 * Sizes and servers of the neurodata benchmark (npm run bench -- neurodata): BENCH_NEURODATA_NEURONS and
 * BENCH_NEURODATA_CONNECTIONS (FlyWire scale by default), BENCH_CLICKHOUSE_URL and BENCH_CLICKHOUSE_TCP_PORT for a
 * running server (otherwise the bench starts one).
 */
export function neurodataBenchSettings(): { neurons: number; connections: number; clickhouseUrl?: string; clickhouseTcpPort: number } {
  return {
    neurons: Number(process.env.BENCH_NEURODATA_NEURONS ?? 139_255),
    connections: Number(process.env.BENCH_NEURODATA_CONNECTIONS ?? 15_000_000),
    clickhouseUrl: process.env.BENCH_CLICKHOUSE_URL || undefined,
    clickhouseTcpPort: Number(process.env.BENCH_CLICKHOUSE_TCP_PORT ?? 9000),
  };
}

/**
 * Size and data of the synapse benchmark (npm run bench -- synapses): BENCH_SYNAPSES synapse rows (FlyWire v783's
 * 54.5 million by default; `--synapses N` on the command line wins), BENCH_SYNAPSES_DIR a folder holding a release
 * made by `npm run bench:generate-flywire` to reuse (its generator.json must name the same size and seed), otherwise
 * the benchmark generates one in a temporary folder and removes it afterwards.
 */
export function synapseBenchSettings(): { synapses: number; dir?: string } {
  const synapses = Number(process.env.BENCH_SYNAPSES ?? 54_500_000);
  return { synapses: Number.isSafeInteger(synapses) && synapses > 0 ? synapses : 54_500_000, dir: process.env.BENCH_SYNAPSES_DIR || undefined };
}
