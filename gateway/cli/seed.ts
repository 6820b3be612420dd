import 'reflect-metadata';
import pino from 'pino';
import { loadConfig, ConfigError, SUBGRAPH_NAMES } from '../../lib/config.js';
import { openStores, closeStores } from '../../lib/stores.js';
import { systemClock } from '../../lib/clock.js';
import { SUBGRAPHS, startOrder } from '../subgraphs.js';

/**
 * npm run seed [-- <subgraph>...]: applies the migrations and loads every subgraph's shipped seed data (the
 * ontology vocabularies under data/ontology, ...) into the configured stores. Idempotent: a second run reports
 * every row unchanged. The service also seeds what is missing on its first start; this re-applies the files.
 */
async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const unknown = only.filter((n) => !(SUBGRAPH_NAMES as readonly string[]).includes(n));
  if (unknown.length) {
    console.error(`unknown subgraph ${unknown.join(', ')}; known: ${SUBGRAPH_NAMES.join(', ')}`);
    return 2;
  }
  const config = loadConfig();
  const started = performance.now();
  console.log(`seeding ${config.relational.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${config.relational.dataDir}`}`);
  const stores = await openStores(config);
  try {
    const deps = { config, stores, clock: systemClock, log: pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }) as never };
    // Shipped datasets are checked against the shipped vocabularies: each subgraph seeds after those it needs.
    for (const name of startOrder(SUBGRAPH_NAMES)) {
      const seed = SUBGRAPHS[name].seed;
      if (!seed || (only.length && !only.includes(name))) continue;
      await seed(deps, (message) => console.log(`  ${message}`));
    }
  } finally {
    await closeStores(stores);
  }
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

try {
  process.exit(await main());
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
