import type { FastifyInstance } from 'fastify';
import type { Config } from '../lib/config.js';
import { GENERIC_SERVER_ERROR, exposedMessage, isExposed, statusOfThrown } from '../lib/errors.js';
import { dropUnsendableHeaders } from '../lib/error-reply.js';
import { clearFlashCookie, flashOf } from '../rest-compat/browser-cookies.js';
import type { RunOperation } from '../rest-compat/login-redirect.js';
import { assetOf } from './assets.js';
import { CSRF_FIELD, csrfOf, csrfProblem } from './csrf.js';
import { createKit, type RestHandler } from './kit.js';
import { html } from './html.js';
import { PAGES } from './pages/index.js';
import { SessionRefresher, resolveSession } from './session.js';

/** What the REST layer hands the pages: the configuration and its operation runners. */
export interface WebHost {
  config: Config;
  /** Runs an operation with the request's context (its Authorization header: the pages set it from the session). */
  runOperation: RunOperation;
  /** Runs an operation with the request's id, address and signal but no credential. */
  runAnonymous: RunOperation;
  /** The REST layer's hand-written handlers by name, for page routes that answer as one of them does. */
  handlers?: Readonly<Record<string, RestHandler>>;
}

/**
 * The pages' Content-Security-Policy: scripts and styles from this origin only (no inline script, no style
 * attribute), no plugins or frames, forms posting to this origin only. A JSON-LD data block is not a script that
 * runs, so it needs no allowance.
 */
export const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Form bodies of the pages are small: a few fields. */
const FORM_BODY_LIMIT = 64 * 1024;

/**
 * Mounts the browser pages (web/pages/) and their assets on the host's Fastify instance. They are not REST routes:
 * not in the route table nor in /openapi.json. The session cookies authenticate these routes only: their hook turns
 * the session into the request's Authorization header before anything builds the request's context, and no other
 * route reads the cookies.
 */
export async function mountWeb(app: FastifyInstance, host: WebHost): Promise<void> {
  const nav = PAGES.flatMap((page) => page.nav ?? []);
  const kit = createKit({ config: host.config, run: host.runOperation, runAnonymous: host.runAnonymous, nav, handlers: host.handlers });
  const refresher = new SessionRefresher(kit.runAnonymous);

  app.get('/assets/:name', { config: { cors: false } }, async (request, reply) => {
    const asset = assetOf((request.params as { name: string }).name);
    if (!asset) return reply.callNotFound();
    const versioned = (request.query as { v?: string }).v === asset.version;
    // A versioned URL never changes content (the page links a new one when the file changes).
    reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    reply.header('etag', `"${asset.version}"`);
    if (request.headers['if-none-match'] === `"${asset.version}"`) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });

  await app.register(async (scope) => {
    // Pages are documents for this origin's browser tabs: no other origin may read them, credentials or not.
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), cors: false } as never;
    });
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.addHook('onRequest', async (request, reply) => {
      // The API's no-referrer makes a browser send `Origin: null` with a form's POST, which the CSRF check must
      // refuse; same-origin keeps the Origin header (and the Referer) within this site.
      reply.header('referrer-policy', 'same-origin');
      const session = await resolveSession(request, refresher, kit.secureCookies);
      // The one place a cookie becomes a credential, and only for these routes.
      if (session.accessToken) request.headers.authorization = `Bearer ${session.accessToken}`;
      else delete request.headers.authorization;
      const csrf = csrfOf(request, kit.secureCookies);
      const flash = flashOf(request);
      request.web = { session, csrf: csrf.value, flash };
      const cookies = [...session.cookies, ...(csrf.cookie ? [csrf.cookie] : []), ...(flash ? [clearFlashCookie(kit.secureCookies)] : [])];
      if (cookies.length) reply.header('set-cookie', cookies);
    });

    // Every state-changing page action is a POST form: checked before its handler runs.
    scope.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST') return;
      const problem = csrfProblem(request, (request.body as Record<string, unknown> | undefined)?.[CSRF_FIELD], kit.originOf(request));
      if (problem) {
        request.log.warn({ problem }, 'page form refused');
        return kit.forbidden(request, reply, problem);
      }
    });

    scope.addHook('onSend', async (_request, reply, payload) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
        reply.header('content-security-policy', PAGE_POLICY);
        // A page holds the browser's form token and the account's details: no cache keeps it.
        reply.header('cache-control', 'no-store');
      }
      return payload;
    });

    scope.setErrorHandler((error, request, reply) => {
      dropUnsendableHeaders(error as { code?: string }, reply);
      // The API's rule: a 503 says which part is unavailable, any other 5xx is a fault whose detail stays in the log.
      const status = statusOfThrown(error);
      if (status >= 500) request.log.error({ err: error }, 'page failed');
      const message = isExposed(status) ? exposedMessage(error) : `${GENERIC_SERVER_ERROR} (request ${request.id})`;
      if (!request.web) return reply.code(status).type('text/plain; charset=utf-8').send(message);
      return kit.render(request, reply, { title: 'Something went wrong', body: html`<h1>Something went wrong</h1><p>${message}</p>` }, status);
    });

    for (const page of PAGES) page.routes(scope, kit);
  });
}
