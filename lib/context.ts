import type { FastifyBaseLogger } from 'fastify';
import type { Viewer } from './auth/viewer.js';

/** What every resolver receives, in-process or in a subgraph served alone. */
export interface RequestContext {
  requestId: string;
  viewer: Viewer | null;
  /** Set when a token was presented but is invalid or expired: protected fields answer 401 with this message. */
  authError?: string;
  /** Re-reads the viewer's account type and verification from the store; set when a viewer is known. */
  reloadViewer?: () => Promise<Viewer | null>;
  /** The raw Authorization header, forwarded to remote subgraphs. */
  authorization?: string;
  /**
   * The caller's IP address as the HTTP host established it (X-Forwarded-For only from TRUST_PROXY addresses);
   * forwarded to remote subgraphs. Login throttling and the password-check budget are kept per address.
   */
  clientIp?: string;
  /**
   * The origin clients reach this service at (PUBLIC_URL, or the scheme and Host of the request): links the service
   * hands out (download URLs, landing pages in citations) start with it. Forwarded to remote subgraphs.
   */
  baseUrl?: string;
  /**
   * Whether this server offers institutional verification (OIDC_INSTITUTIONAL_ISSUER is set): the refusal of an
   * Academic operation then points at it, otherwise at what works without it (lib/access.ts).
   */
  institutionalLogin?: boolean;
  /** Aborted when the request times out or the client goes away. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}
