import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../context.js';
import type { TokenVerifier, Viewer } from './viewer.js';
import type { RequestAbort } from '../request-scope.js';

/**
 * Builds the request context from the Authorization header. A missing token makes an anonymous context; a bad one
 * is remembered as `authError`, so public fields still answer and protected ones say why the token was refused.
 */
export async function buildRequestContext(
  input: {
    requestId: string;
    authorization?: string;
    clientIp?: string;
    baseUrl?: string;
    /** The request's signal, or its abort, whose signal is made only if the operation asks for it. */
    signal: AbortSignal | RequestAbort;
    log: FastifyBaseLogger;
    /** Whether this server offers institutional verification (it shapes the refusal of Academic operations). */
    institutionalLogin?: boolean;
  },
  verifier: TokenVerifier | null,
): Promise<RequestContext> {
  const source = input.signal;
  const ctx: RequestContext = {
    requestId: input.requestId,
    viewer: null,
    authorization: input.authorization,
    clientIp: input.clientIp,
    baseUrl: input.baseUrl,
    get signal() {
      return source instanceof AbortSignal ? source : source.signal;
    },
    log: input.log,
    institutionalLogin: input.institutionalLogin,
  };
  const header = input.authorization?.trim();
  if (!header) return ctx;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) {
    ctx.authError = 'malformed Authorization header: expected "Bearer <access_token>"';
    return ctx;
  }
  if (!verifier) {
    ctx.authError = 'this service cannot verify tokens';
    return ctx;
  }
  try {
    const viewer = await verifier.verifyAccessToken(match[1], { clientIp: input.clientIp });
    ctx.viewer = viewer;
    if (verifier.currentStanding && !viewer.apiToken) {
      // One lookup per request, however many fields ask.
      let reloaded: Promise<Viewer | null> | undefined;
      ctx.reloadViewer = () =>
        (reloaded ??= verifier.currentStanding!(viewer.id).then((now) => (now ? { ...viewer, ...now } : null)));
    }
  } catch (e) {
    ctx.authError = (e as Error).message || 'invalid access token';
  }
  return ctx;
}
