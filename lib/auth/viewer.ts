/** Account types of spec section 3. */
export type AccountType = 'REGULAR' | 'ACADEMIC' | 'SERVICE' | 'SUPERUSER';

/** Who is calling, as established from a verified access token. */
export interface Viewer {
  id: string;
  accountType: AccountType;
  /** True for institution-verified Academic accounts, Service accounts and SuperUsers. */
  verified: boolean;
  tokenId: string;
  /** The login (refresh family) the access token was issued for; absent in tokens that do not name one. */
  sessionId?: string;
}

/**
 * Turns the bearer credential of a request into a Viewer. Implemented by the identity subgraph's token module and
 * handed to the gateway and to every subgraph served alone, so they verify tokens the same way.
 */
export interface TokenVerifier {
  /** Resolves to the viewer, or throws Unauthenticated with a message saying what is wrong with the token. */
  verifyAccessToken(token: string): Promise<Viewer>;
  /**
   * The account's type and verification as stored now. A token's claims are fixed when it is issued, so an
   * account verified or promoted since then is looked up here before a too-low class is refused. Null when the
   * account no longer exists.
   */
  currentStanding?(accountId: string): Promise<Pick<Viewer, 'accountType' | 'verified'> | null>;
}
