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

/** The subgraphs in an order where each starts after those it names in `startsAfter`. */
export function startOrder(names: readonly SubgraphName[]): SubgraphName[] {
  const out: SubgraphName[] = [];
  const visit = (name: SubgraphName, path: string[]) => {
    if (out.includes(name)) return;
    if (path.includes(name)) throw new Error(`subgraph start order has a cycle: ${[...path, name].join(' -> ')}`);
    for (const before of SUBGRAPHS[name].startsAfter ?? []) if (names.includes(before as SubgraphName)) visit(before as SubgraphName, [...path, name]);
    out.push(name);
  };
  for (const name of names) visit(name, []);
  return out;
}
