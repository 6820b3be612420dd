import 'reflect-metadata';
import { loadConfig, SUBGRAPH_NAMES, type SubgraphName } from '../../lib/config.js';
import { createSubgraphServer } from '../subgraph-server.js';
import { stopOnSignals } from '../shutdown.js';

/** npm run subgraph -- <name> [--port N]: serves one subgraph alone at http://HOST:PORT/graphql. */
const [name, ...rest] = process.argv.slice(2);
if (!SUBGRAPH_NAMES.includes(name as SubgraphName)) {
  console.error(`usage: npm run subgraph -- <${SUBGRAPH_NAMES.join('|')}> [--port N]`);
  process.exit(2);
}
const config = loadConfig();
if (config.subgraphs.disabled.includes(name as SubgraphName)) {
  console.error(`the ${name} subgraph is disabled on this cluster (SUBGRAPHS_DISABLED=${config.subgraphs.disabled.join(',')}): remove it from SUBGRAPHS_DISABLED to serve it`);
  process.exit(2);
}
const portFlag = rest.indexOf('--port');
const port = portFlag >= 0 ? Number(rest[portFlag + 1]) : config.subgraphs.port;
const server = await createSubgraphServer(config, name as SubgraphName);
await server.http.listen({ host: config.http.host, port });
console.log(`${name} subgraph at http://${config.http.host}:${port}/graphql`);
stopOnSignals(() => server.close());
