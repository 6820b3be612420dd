import 'reflect-metadata';
import pino from 'pino';
import { loadConfig, ConfigError } from '../../lib/config.js';
import { openStores, closeStores } from '../../lib/stores.js';
import { systemClock } from '../../lib/clock.js';
import { reindexSearch } from '../../subgraphs/neurodata/index.js';

/**
 * npm run search:reindex: rebuilds the dataset search index from the datasets, printing progress. With
 * TYPESENSE_URL set it also recreates the Typesense collection; without it the PostgreSQL catalogue is rebuilt
 * (normally unnecessary: it is written in the same transaction as each dataset change).
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const started = performance.now();
  const stores = await openStores(config);
  try {
    const deps = { config, stores, clock: systemClock, log: pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }) as never };
    console.log(`re-indexing datasets into ${config.search.kind === 'typesense' ? `Typesense at ${config.search.url}` : 'PostgreSQL full text'}`);
    const r = await reindexSearch(deps, (done, total) => console.log(`  ${done} / ${total} datasets (${total ? Math.round((100 * done) / total) : 100}%)`));
    console.log(`indexed ${r.indexed} published datasets, removed ${r.removed} stale entries (${r.engine}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await closeStores(stores);
  }
  return 0;
}

try {
  process.exit(await main());
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
