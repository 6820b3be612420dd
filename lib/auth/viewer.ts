/** What a personal API token may be made for: reading; reading and computing; that and changing datasets. */
export const TOKEN_SCOPES = ['read', 'compute', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Account types of spec section 3. */
export type AccountType = 'REGULAR' | 'ACADEMIC' | 'SERVICE' | 'SUPERUSER';

/** Who is calling, as established from a verified access token. */
export interface Viewer {
  id: string;
  accountType: AccountType;
  /** True for institution-verified Academic accounts, Service accounts and SuperUsers. */
  verified: boolean;
  tokenId: string;
  /**
   * Set when the caller presented a personal API token: its id and scope. The account's type and verification are
   * then as stored when the token was presented, not as claimed at issue.
   */
  apiToken?: { id: string; scope: TokenScope };
  /** The login (refresh family) the access token was issued for; absent in tokens that do not name one. */
  sessionId?: string;
  /**
   * Set when another cluster of the federation issued the token. `id` is then this cluster's name for that person
   * (derived from the cluster and their account there, so it never equals a local account's id), and the account
   * type is the one that cluster claimed, capped by FEDERATION_REMOTE_ACCESS.
   */
  origin?: { clusterId: string; clusterName: string; accountId: string };
}

/** A cluster of the federation whose tokens this one accepts, and the highest class they get. */
export interface ForeignIssuer {
  clusterId: string;
  clusterName: string;
  maxClass: 'User' | 'Academic';
}

/**
 * Keys of other clusters, looked up by the key id a token's footer names. Asked on every request that carries such
 * a token, so a deactivated cluster's tokens stop working at once.
 */
export interface ForeignKeys {
  keyFor(kid: string): Promise<{ paserk: string; issuer: ForeignIssuer } | null>;
}

/**
 * Turns the bearer credential of a request into a Viewer. Implemented by the identity subgraph's token module and
 * handed to the gateway and to every subgraph served alone, so they verify tokens the same way.
 */
export interface TokenVerifier {
  /** Resolves to the viewer, or throws Unauthenticated with a message saying what is wrong with the token. */
  verifyAccessToken(token: string, request?: { clientIp?: string }): Promise<Viewer>;
  /**
   * The account's type and verification as stored now. A token's claims are fixed when it is issued, so an
   * account verified or promoted since then is looked up here before a too-low class is refused. Null when the
   * account no longer exists.
   */
  currentStanding?(accountId: string): Promise<Pick<Viewer, 'accountType' | 'verified'> | null>;
}
