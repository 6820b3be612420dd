import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLError } from 'graphql';
import type { Config } from '../lib/config.js';
import { GENERIC_SERVER_ERROR, codeOf, isExposed, statusForCode } from '../lib/errors.js';
import { flashCookie, sameSitePath, type Flash } from '../rest-compat/browser-cookies.js';
import type { RunOperation } from '../rest-compat/login-redirect.js';
import { html } from './html.js';
import { layout, type NavEntry, type PageContent } from './layout.js';
import { runsByName, type RunNamedOperation } from './operations.js';
import { claimsSuperUser, type BrowserSession } from './session.js';

/** What the pages' hook found out about a page request. */
export interface WebRequestState {
  session: BrowserSession;
  /** The browser's CSRF value, for the forms of the page. */
  csrf: string;
  flash: Flash | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for page routes only (web/index.ts). */
    web?: WebRequestState;
  }
}

/** A hand-written handler of the REST layer (rest-compat/mount.ts): it runs its own operations and access checks. */
export type RestHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** What every page module gets: how to run operations, render pages and answer forms. */
export interface WebKit {
  config: Config;
  /** Runs one of OPERATIONS as the signed-in browser (the session's access token), like any REST handler. */
  run: RunNamedOperation;
  /** Runs a public one of OPERATIONS with no credential of the request (sign-in, registration, the session's refresh). */
  runAnonymous: RunNamedOperation;
  /** `run` for an operation text of the REST layer's (`startBoundFlow`): its answer is the REST layer's to read. */
  runText: RunOperation;
  /** Whether the pages' cookies are Secure (PUBLIC_URL is https). */
  secureCookies: boolean;
  /** This service's origin as browsers see it: PUBLIC_URL's, or the request's own. */
  originOf(request: FastifyRequest): string;
  /** Sends a page in the shell, with its status. */
  render(request: FastifyRequest, reply: FastifyReply, content: PageContent, status?: number): FastifyReply;
  /** Post/redirect/get: 303 to a path of this site, with a message the next page shows. */
  redirectWithFlash(reply: FastifyReply, path: string, flash: Flash): FastifyReply;
  /** For pages of signed-in users: false after answering 303 to the sign-in page (which returns here). */
  requireSignIn(request: FastifyRequest, reply: FastifyReply): boolean;
  /** Answers 403 with a page saying why (a failed CSRF or Origin check); nothing was changed. */
  forbidden(request: FastifyRequest, reply: FastifyReply, reason: string): FastifyReply;
  /** Answers an operation's error that no form field explains: its message (or a generic one for a fault). */
  operationFailed(request: FastifyRequest, reply: FastifyReply, error: GraphQLError, what: string): FastifyReply;
  /**
   * A REST handler by name (`jobResult`), for a page route that answers as it does (bytes streamed from object
   * storage) with the session's credentials; undefined when the host has none of that name.
   */
  restHandler(name: string): RestHandler | undefined;
}

/** One page module of web/pages/: its routes, and its entries of the header's navigation. */
export interface WebPage {
  nav?: NavEntry[];
  routes(scope: FastifyInstance, kit: WebKit): void;
}

export const stateOf = (request: FastifyRequest): WebRequestState => {
  if (!request.web) throw new Error('a page route runs without the pages hook (register it inside mountWeb)');
  return request.web;
};

/** The message of an operation's error as a person may read it, and its status; faults are logged and masked. */
export function errorOf(request: FastifyRequest, error: GraphQLError, what: string): { status: number; message: string } {
  const status = statusForCode(codeOf(error));
  if (isExposed(status)) return { status, message: error.message };
  request.log.error({ err: error }, what);
  return { status: 500, message: `${GENERIC_SERVER_ERROR} (request ${request.id})` };
}

export function createKit(opts: {
  config: Config;
  run: RunOperation;
  runAnonymous: RunOperation;
  nav: readonly NavEntry[];
  handlers?: Readonly<Record<string, RestHandler>>;
}): WebKit {
  const { config } = opts;
  const secureCookies = Boolean(config.login.publicUrl?.startsWith('https://'));
  const publicOrigin = config.login.publicUrl ? new URL(config.login.publicUrl).origin : null;
  const kit: WebKit = {
    config,
    run: runsByName(opts.run),
    runAnonymous: runsByName(opts.runAnonymous),
    runText: opts.run,
    secureCookies,
    originOf: (request) => publicOrigin ?? `${request.protocol}://${request.host}`,
    render(request, reply, content, status = 200) {
      const state = stateOf(request);
      const frame = {
        path: request.url.split('?')[0]!,
        signedIn: Boolean(state.session.accessToken),
        superUser: claimsSuperUser(state.session.accessToken),
        csrf: state.csrf,
        flash: state.flash,
        nav: opts.nav,
        apiDocs: config.api.docs,
      };
      return reply.code(status).type('text/html; charset=utf-8').send(layout(frame, content).value);
    },
    redirectWithFlash(reply, path, flash) {
      reply.header('set-cookie', flashCookie(flash, secureCookies));
      return reply.redirect(sameSitePath(path) ?? '/', 303);
    },
    requireSignIn(request, reply) {
      if (stateOf(request).session.accessToken) return true;
      const here = sameSitePath(request.url);
      reply.redirect(`/sign-in${here ? `?next=${encodeURIComponent(here)}` : ''}`, 303);
      return false;
    },
    forbidden(request, reply, reason) {
      return kit.render(
        request,
        reply,
        {
          title: 'Not accepted',
          body: html`<h1>This request was not accepted</h1>
<p>${reason}. Nothing was changed.</p>
<p>Go back, reload the page and try again.</p>`,
        },
        403,
      );
    },
    operationFailed(request, reply, error, what) {
      const { status, message } = errorOf(request, error, what);
      return kit.render(request, reply, { title: 'Something went wrong', body: html`<h1>That did not work</h1><p>${message}</p>` }, status);
    },
    restHandler: (name) => opts.handlers?.[name],
  };
  return kit;
}
