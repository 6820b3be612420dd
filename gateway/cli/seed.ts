import 'reflect-metadata';
import { loadConfig, SUBGRAPH_NAMES, type SubgraphName } from '../../lib/config.js';
import { enabledSubgraphs } from '../compose.js';
import { SUBGRAPHS, startOrder } from '../subgraphs.js';
import { runCommand, withSubgraphDeps } from './store-session.js';

/**
 * npm run seed [-- <subgraph>...]: applies the migrations and loads every subgraph's shipped seed data (the
 * ontology vocabularies under seed/ontology, ...) into the configured stores. Idempotent: a second run reports
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
  const disabled = only.filter((n) => config.subgraphs.disabled.includes(n as SubgraphName));
  if (disabled.length) {
    console.error(`subgraph ${disabled.join(', ')} is disabled on this cluster (SUBGRAPHS_DISABLED): nothing to seed`);
    return 2;
  }
  const started = performance.now();
  console.log(`seeding ${config.relational.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${config.relational.dataDir}`}`);
  await withSubgraphDeps(config, async (deps) => {
    // Shipped datasets are checked against the shipped vocabularies: each subgraph seeds after those it needs.
    // A subgraph SUBGRAPHS_DISABLED names is not served here, so it is not seeded either.
    for (const name of startOrder(enabledSubgraphs(config))) {
      const seed = SUBGRAPHS[name].seed;
      if (!seed || (only.length && !only.includes(name))) continue;
      await seed(deps, (message) => console.log(`  ${message}`));
    }
  });
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

await runCommand(main);
