import type { SubgraphName } from '../lib/config.js';
import type { SubgraphModule } from '../lib/subgraph.js';
import * as identity from '../subgraphs/identity/index.js';
import * as neurodata from '../subgraphs/neurodata/index.js';
import * as query from '../subgraphs/query/index.js';
import * as graph from '../subgraphs/graph/index.js';
import * as ontology from '../subgraphs/ontology/index.js';
import * as federation from '../subgraphs/federation/index.js';

/** Every subgraph, in composition order. */
export const SUBGRAPHS: Record<SubgraphName, SubgraphModule> = { identity, neurodata, query, graph, ontology, federation };
