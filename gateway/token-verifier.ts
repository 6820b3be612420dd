import type { TokenVerifier } from '../lib/auth/viewer.js';
import type { SubgraphDeps } from '../lib/subgraph.js';
import { SUBGRAPHS } from './subgraphs.js';

/** The identity subgraph's token verifier, when it provides one; without it no token is accepted. */
export async function createTokenVerifier(deps: SubgraphDeps): Promise<TokenVerifier | null> {
  const identity = SUBGRAPHS.identity as { createTokenVerifier?: (d: SubgraphDeps) => Promise<TokenVerifier> };
  return identity.createTokenVerifier ? identity.createTokenVerifier(deps) : null;
}
