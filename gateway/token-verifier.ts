import type { TokenVerifier } from '../lib/auth/viewer.js';
import type { SubgraphDeps } from '../lib/subgraph.js';
import { identity } from '../subgraphs/identity/index.js';
import { federation } from '../subgraphs/federation/index.js';

/**
 * The identity subgraph's token verifier, which also accepts the tokens of active federation clusters through the
 * federation subgraph's keys.
 */
export async function createTokenVerifier(deps: SubgraphDeps): Promise<TokenVerifier | null> {
  return identity.use(deps).tokenVerifier(federation.use(deps).foreignKeys());
}
