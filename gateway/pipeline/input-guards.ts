import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import { BadInput, PayloadTooLarge } from '../../lib/errors.js';
import { sendAppError } from './errors.js';
import { textProblem } from '../operation-guards.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. No operation takes more than a few levels; deeper
 * bodies only exist to exhaust the stack of whatever walks them after parsing (a 500 instead of a 400).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Credentials never travel in a URL: URLs are kept in proxy and server logs, browser history and Referer headers.
 * A query parameter with one of these names is refused on every route, whatever the route does with it, except
 * where the route's config names it in `credentialQueryParams`: the one page a redirect-mode social sign-in returns
 * to with its single-use, one-minute login_code (web/pages/sign-in.ts), which a login provider can only put there.
 */
const CREDENTIAL_PARAM = /^(?:.*_)?(?:password|passwd|passphrase|secret|token)$|^(?:api_?key|login_code|authorization)$/i;

/** True when `text` nests arrays and objects deeper than `max`; one pass over the text, strings skipped. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end > 0) {
        let slashes = 0;
        for (let j = end - 1; text.charCodeAt(j) === 0x5c; j--) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end < 0) return false; // unterminated: JSON.parse reports it
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** The first problem of a query string or path parameters, as a message naming the parameter; undefined when fine. */
function parameterProblem(kind: 'query' | 'path', params: unknown, allowedCredentials: string[] = []): string | undefined {
  if (!params || typeof params !== 'object') return undefined;
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (kind === 'query' && CREDENTIAL_PARAM.test(name) && !allowedCredentials.includes(name)) {
      return `query parameter ${name}: credentials are not accepted in the URL (URLs end up in logs and browser history); send them in the JSON request body, and access tokens in the Authorization header`;
    }
    const values = Array.isArray(value) ? value : [value];
    const problem = textProblem(name) ?? values.reduce<string | undefined>((found, v) => found ?? (typeof v === 'string' ? textProblem(v) : undefined), undefined);
    if (problem) return `${kind} parameter ${name.replace(/\0/g, '\\u0000').replace(/[\uD800-\uDFFF]/g, '\uFFFD')}: ${problem}`;
  }
  return undefined;
}

/**
 * Cheap checks of what arrives from anyone before any of it reaches an operation: the JSON body's nesting depth
 * (before it is parsed), and credentials, NUL characters or lone surrogates in the URL's parameters. Strings inside GraphQL
 * operations and their variables are checked by gateway/operation-guards.ts.
 */
export function registerInputGuards(app: FastifyInstance, anonymousBodyLimit?: number, isSignedIn?: SignedInCheck): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // Counted here, after decompression; the Content-Length check below spares reading an uncompressed one.
    if (anonymousBodyLimit !== undefined && request.anonymousBody !== false && Buffer.byteLength(body as string) > anonymousBodyLimit) {
      done(anonymousTooLarge(anonymousBodyLimit), undefined);
      return;
    }
    if (jsonNestingExceeds(body as string, MAX_JSON_DEPTH)) {
      done(new BadInput(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });

  if (anonymousBodyLimit !== undefined) {
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
      if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return done();
      const decide = (anonymous: boolean) => {
        request.anonymousBody = anonymous;
        const declared = Number(request.headers['content-length']);
        if (anonymous && !request.headers['content-encoding'] && declared > anonymousBodyLimit) sendAppError(reply, anonymousTooLarge(anonymousBodyLimit));
        else done();
      };
      // Any Authorization header is not a token: the larger budget is for a token that verifies, decided before a
      // byte of the body is read (the request's context is built once, so its operations verify nothing again).
      if (!request.headers.authorization || !isSignedIn) return decide(!request.headers.authorization);
      isSignedIn(request).then((signedIn) => decide(!signedIn), done);
    });
  }

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const allowed = (request.routeOptions.config as { credentialQueryParams?: string[] } | undefined)?.credentialQueryParams;
    const problem = parameterProblem('query', request.query, allowed) ?? parameterProblem('path', request.params);
    // Answered here, the request goes no further: a hook that replies does not call done().
    if (problem) sendAppError(reply, new BadInput(problem));
    else done();
  });
}

/** Whether a request carries a token that verifies (the gateway's request context decides it). */
export type SignedInCheck = (request: FastifyRequest) => Promise<boolean>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether a JSON body is held to the anonymous budget: false only for a caller whose token verified. */
    anonymousBody?: boolean;
  }
}

const anonymousTooLarge = (limit: number): PayloadTooLarge =>
  new PayloadTooLarge(
    `request body exceeds the limit of ${limit} bytes for callers without a valid token (BODY_LIMIT_BYTES_ANONYMOUS; a compressed body counts its decompressed bytes): sign in and send the token as Authorization: Bearer for larger requests`,
  );
