import 'reflect-metadata';
import { loadConfig } from '../../lib/config.js';
import { neurodata } from '../../subgraphs/neurodata/index.js';
import { runCommand, withSubgraphDeps } from './store-session.js';

/**
 * npm run search:reindex: rebuilds the dataset search index from the datasets, printing progress. With
 * TYPESENSE_URL set it also recreates the Typesense collection; without it the PostgreSQL catalogue is rebuilt
 * (normally unnecessary: it is written in the same transaction as each dataset change).
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const started = performance.now();
  console.log(`re-indexing datasets into ${config.search.kind === 'typesense' ? `Typesense at ${config.search.url}` : 'PostgreSQL full text'}`);
  const r = await withSubgraphDeps(config, (deps) =>
    neurodata.use(deps).reindexSearch((done, total) => console.log(`  ${done} / ${total} datasets (${total ? Math.round((100 * done) / total) : 100}%)`)),
  );
  console.log(`indexed ${r.indexed} published datasets, removed ${r.removed} stale entries (${r.engine}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

await runCommand(main);
