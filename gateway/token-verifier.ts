import type { ForeignKeys, TokenVerifier } from '../lib/auth/viewer.js';
import type { SubgraphDeps } from '../lib/subgraph.js';
import { SUBGRAPHS } from './subgraphs.js';

/**
 * The identity subgraph's token verifier, when it provides one (without it no token is accepted), which also
 * accepts the tokens of active federation clusters through the federation subgraph's keys.
 */
export async function createTokenVerifier(deps: SubgraphDeps): Promise<TokenVerifier | null> {
  const identity = SUBGRAPHS.identity as { createTokenVerifier?: (d: SubgraphDeps, foreign?: ForeignKeys) => Promise<TokenVerifier> };
  const federation = SUBGRAPHS.federation as { foreignKeys?: (d: SubgraphDeps) => ForeignKeys };
  return identity.createTokenVerifier ? identity.createTokenVerifier(deps, federation.foreignKeys?.(deps)) : null;
}
