/** Account types of spec section 3. */
export type AccountType = 'REGULAR' | 'ACADEMIC' | 'SERVICE' | 'SUPERUSER';

/** Who is calling, as established from a verified access token. */
export interface Viewer {
  id: string;
  accountType: AccountType;
  /** True for institution-verified Academic accounts, Service accounts and SuperUsers. */
  verified: boolean;
  tokenId: string;
}

/**
 * Turns the bearer credential of a request into a Viewer. Implemented by the identity subgraph's token module and
 * handed to the gateway and to every subgraph served alone, so they verify tokens the same way.
 */
export interface TokenVerifier {
  /** Resolves to the viewer, or throws Unauthenticated with a message saying what is wrong with the token. */
  verifyAccessToken(token: string): Promise<Viewer>;
}
