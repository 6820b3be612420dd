import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { SOCIAL_PROVIDERS } from '../lib/config.js';
import { GENERIC_SERVER_ERROR, codeOf, isExposed, statusForCode } from '../lib/errors.js';
import { sendError } from '../lib/error-reply.js';
import { cookieOf, flashCookie, sameSitePath, serializeCookie } from './browser-cookies.js';
import { sendGraphqlError } from './handler-replies.js';
import { CALLBACK_PARAMETERS } from './routes/callback-parameters.js';
import { AUTHORIZATION_REDIRECT, INSTITUTIONAL_RESULT, LINKED_IDENTITY, ORCID_RESULT, SOCIAL_SESSION } from './routes/login-results.js';

/** Runs one GraphQL operation with the context of an HTTP request (token, request id, abort signal). */
export type RunOperation = (request: FastifyRequest, query: string, variables?: Record<string, unknown>) => Promise<ExecutionResult>;

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * The authorize routes of the login providers. By default they answer 302 with the provider URL in Location, as
 * spec 4.2 describes; `?mode=json` answers `{authorization_url, expires_at}` instead, for clients that call the
 * route with a Bearer token and then open the URL in a browser (a browser navigation cannot carry that header,
 * and a script cannot read a cross-origin redirect's Location).
 */
export function loginRedirectHandlers(run: RunOperation, opts: { secureCookies: boolean }): Record<string, Handler> {
  const handlers: Record<string, Handler> = {
    institutionalAuthorize: boundAuthorizeHandler(run, 'institutional', opts.secureCookies),
    institutionalCallback: boundCallbackHandler(run, 'institutional', 'completeInstitutionalVerification', INSTITUTIONAL_RESULT.selection, opts.secureCookies),
    orcidAuthorize: boundAuthorizeHandler(run, 'orcid', opts.secureCookies),
    orcidCallback: boundCallbackHandler(run, 'orcid', 'completeOrcidLink', ORCID_RESULT.selection, opts.secureCookies),
  };
  for (const provider of SOCIAL_PROVIDERS) {
    handlers[`${provider}Login`] = socialLoginHandler(run, provider, opts.secureCookies);
    handlers[`${provider}Authorize`] = authorizeHandler(run, 'startSocialLink', { provider });
    handlers[`${provider}Callback`] = socialCallbackHandler(run, provider, opts.secureCookies);
  }
  return handlers;
}

/**
 * Holds the browser-binding value of a flow, from where it starts (/login, or /authorize of institutional
 * verification and ORCID linking) to /callback of the same provider.
 */
export const BINDING_COOKIE = 'login_binding';
/** How long a started flow waits for its callback (the state row's lifetime), and so its cookies. */
export const FLOW_MAX_AGE_SEC = 600;
/**
 * Set beside the binding by a web page that starts a bound flow: the same-site path the callback sends the browser
 * back to (303, the outcome in a flash message) instead of answering JSON.
 */
export const LOGIN_RETURN_COOKIE = 'login_return';

/** The flows bound to the browser that starts them, and their starting mutations. */
export type BoundProvider = 'institutional' | 'orcid';
const BOUND_START: Record<BoundProvider, string> = { institutional: 'startInstitutionalVerification', orcid: 'startOrcidLink' };

/**
 * Starts institutional verification or ORCID linking for the caller of `request` (its token), bound to the browser:
 * a fresh random binding goes to the flow (which keeps its hash) and into the cookie the caller must set, scoped to
 * the provider's callback. Returns the provider URL and that cookie, or the operation's error.
 */
export async function startBoundFlow(
  run: RunOperation,
  request: FastifyRequest,
  provider: BoundProvider,
  secureCookies: boolean,
): Promise<{ started: { authorization_url: string; expires_at: string }; cookie: string } | { error: GraphQLError }> {
  const field = BOUND_START[provider];
  const binding = randomBytes(32).toString('base64url');
  const result = await run(request, `mutation ${field}($browser_binding: String) { ${field}(browser_binding: $browser_binding) { ${AUTHORIZATION_REDIRECT.selection} } }`, {
    browser_binding: binding,
  });
  if (result.errors?.[0]) return { error: result.errors[0] };
  const started = (result.data as Record<string, { authorization_url: string; expires_at: string }>)[field]!;
  return { started, cookie: bindingCookie(provider, binding, FLOW_MAX_AGE_SEC, secureCookies) };
}

/**
 * `GET /v1/user/authenticate/<institutional|orcid>/authorize`: the flow is bound to this browser in both modes (the
 * binding cookie is set with the answer). In json mode the cookie reaches the browser when the page calls this route
 * itself (fetch with credentials).
 */
function boundAuthorizeHandler(run: RunOperation, provider: BoundProvider, secureCookies: boolean): Handler {
  return async (request, reply) => {
    const mode = modeOf(request);
    if (!mode) return badMode(request, reply);
    const out = await startBoundFlow(run, request, provider, secureCookies);
    if ('error' in out) return sendGraphqlError(request, reply, out.error, 'authorize failed');
    // The URL carries a one-time state; no cache may keep it.
    reply.header('cache-control', 'no-store');
    reply.header('set-cookie', out.cookie);
    if (mode === 'json') return reply.code(200).type('application/json; charset=utf-8').send(out.started);
    return reply.redirect(out.started.authorization_url, 302);
  };
}

/** `GET /v1/user/authenticate/<provider>/authorize` of the social providers: linking, not bound to the browser. */
function authorizeHandler(run: RunOperation, field: string, args: Record<string, string>): Handler {
  const params = Object.keys(args).map((p) => `$${p}: String!`);
  const passed = Object.keys(args).map((p) => `${p}: $${p}`);
  const signature = params.length ? `(${params.join(', ')})` : '';
  const call = passed.length ? `(${passed.join(', ')})` : '';
  const document = `mutation ${field}${signature} { ${field}${call} { ${AUTHORIZATION_REDIRECT.selection} } }`;
  return async (request, reply) => {
    const mode = modeOf(request);
    if (!mode) return badMode(request, reply);
    const result = await run(request, document, args);
    if (result.errors?.[0]) return sendGraphqlError(request, reply, result.errors[0], 'authorize failed');
    const started = (result.data as Record<string, { authorization_url: string; expires_at: string }>)[field];
    reply.header('cache-control', 'no-store');
    if (mode === 'json') return reply.code(200).type('application/json; charset=utf-8').send(started);
    return reply.redirect(started.authorization_url, 302);
  };
}

/**
 * `GET /v1/user/authenticate/<provider>/callback` of a flow bound by its authorize route (institutional
 * verification, ORCID linking): passes the binding cookie to the completing mutation, which refuses a browser
 * without it. Answers the mutation's result as JSON; or, when a web page started the flow (the `login_return`
 * cookie holds a path of this site), sends the browser back there (303) with the outcome as a flash message.
 */
function boundCallbackHandler(run: RunOperation, provider: BoundProvider, field: string, selection: string, secureCookies: boolean): Handler {
  const document = `mutation ${field}(${CALLBACK_VARIABLES}) {
    ${field}(${CALLBACK_ARGUMENTS}) { ${selection} }
  }`;
  return async (request, reply) => {
    const binding = cookieOf(request, BINDING_COOKIE);
    const returnCookie = cookieOf(request, LOGIN_RETURN_COOKIE);
    const result = await run(request, document, callbackVariables(request, binding));
    if (binding) reply.header('set-cookie', bindingCookie(provider, '', 0, secureCookies));
    reply.header('cache-control', 'no-store');
    const error = result.errors?.[0];
    const done = error ? undefined : (result.data as Record<string, Record<string, unknown>>)[field];
    if (returnCookie !== null) {
      reply.header('set-cookie', loginReturnCookie(provider, '', 0, secureCookies));
      const returnTo = sameSitePath(returnCookie);
      if (returnTo) {
        let message: string;
        if (error) {
          const status = statusForCode(codeOf(error));
          if (!isExposed(status)) request.log.error({ err: error }, `${provider} callback failed`);
          message = isExposed(status) ? error.message : `${GENERIC_SERVER_ERROR} (request ${request.id})`;
        } else {
          message = boundFlowSuccess(provider, done!);
        }
        reply.header('set-cookie', flashCookie({ kind: error ? 'alert' : 'status', message }, secureCookies));
        return reply.redirect(returnTo, 303);
      }
    }
    if (error) return sendGraphqlError(request, reply, error, `${provider} callback failed`);
    return reply.code(200).type('application/json; charset=utf-8').send(done);
  };
}

/** What a person reads back on the page after a bound flow succeeded. */
function boundFlowSuccess(provider: BoundProvider, done: Record<string, unknown>): string {
  if (provider === 'orcid') return `Your ORCID iD ${String(done.orcid)} is linked to this account.`;
  const type = String(done.account_type);
  const standing = type === 'ACADEMIC' ? 'your account is now Academic' : `your account stays ${type.charAt(0)}${type.slice(1).toLowerCase()}`;
  return `Your institution${done.institution ? ` (${String(done.institution)})` : ''} verified you: ${standing}.`;
}

/**
 * `GET /v1/user/authenticate/<provider>/login`: starts a sign-in. In redirect mode (the default, a browser
 * navigation) the browser gets a random binding value in an HttpOnly cookie scoped to the callback path, and the
 * flow stores its hash: only this browser can complete the sign-in. In json mode the client gets the provider URL.
 */
function socialLoginHandler(run: RunOperation, provider: string, secureCookies: boolean): Handler {
  const document = `mutation startSocialLogin($provider: String!, $mode: String!, $browser_binding: String) {
    startSocialLogin(provider: $provider, mode: $mode, browser_binding: $browser_binding) { ${AUTHORIZATION_REDIRECT.selection} }
  }`;
  return async (request, reply) => {
    const mode = modeOf(request);
    if (!mode) return badMode(request, reply);
    const binding = mode === 'redirect' ? randomBytes(32).toString('base64url') : null;
    const result = await run(request, document, { provider, mode, browser_binding: binding });
    if (result.errors?.[0]) return sendGraphqlError(request, reply, result.errors[0], 'social login start failed');
    const started = (result.data as { startSocialLogin: { authorization_url: string; expires_at: string } }).startSocialLogin;
    reply.header('cache-control', 'no-store');
    if (mode === 'json') return reply.code(200).type('application/json; charset=utf-8').send(started);
    reply.header('set-cookie', bindingCookie(provider, binding!, 600, secureCookies));
    return reply.redirect(started.authorization_url, 302);
  };
}

/**
 * `GET /v1/user/authenticate/<provider>/callback`: completes a sign-in or a link. A redirect-mode sign-in sends the
 * browser to LOGIN_RETURN_URL with a single-use login_code (never tokens in a URL); a json-mode sign-in answers the
 * token pair; a link answers the linked identity. Failures answer `{"error"}` with the mapped status.
 */
function socialCallbackHandler(run: RunOperation, provider: string, secureCookies: boolean): Handler {
  const document = `mutation completeSocialLogin($provider: String!, ${CALLBACK_VARIABLES}) {
    completeSocialLogin(provider: $provider, ${CALLBACK_ARGUMENTS}) {
      purpose provider account_id account_created redirect_url
      session { ${SOCIAL_SESSION.selection} }
      identity { ${LINKED_IDENTITY.selection} }
    }
  }`;
  return async (request, reply) => {
    const binding = cookieOf(request, BINDING_COOKIE);
    const result = await run(request, document, { provider, ...callbackVariables(request, binding) });
    // Whatever happened, the flow's state is used up, and so is the binding.
    if (binding) reply.header('set-cookie', bindingCookie(provider, '', 0, secureCookies));
    reply.header('cache-control', 'no-store');
    if (result.errors?.[0]) return sendGraphqlError(request, reply, result.errors[0], 'social login callback failed');
    const done = (result.data as { completeSocialLogin: { purpose: string; redirect_url: string | null; session: unknown; identity: unknown } }).completeSocialLogin;
    if (done.redirect_url) {
      // The login_code must not reach the front end's third parties through the Referer header.
      reply.header('referrer-policy', 'no-referrer');
      return reply.redirect(done.redirect_url, 302);
    }
    const body = done.purpose === 'link' ? done.identity : done.session;
    return reply.code(200).type('application/json; charset=utf-8').send(body);
  };
}

/** The completing mutations take the callback's query parameters and the browser binding. */
const CALLBACK_VARIABLES = [...CALLBACK_PARAMETERS.map((p) => `$${p.name}: String${p.required ? '!' : ''}`), '$browser_binding: String'].join(', ');
const CALLBACK_ARGUMENTS = [...CALLBACK_PARAMETERS.map((p) => p.name), 'browser_binding'].map((name) => `${name}: $${name}`).join(', ');

function callbackVariables(request: FastifyRequest, binding: string | null): Record<string, string | null | undefined> {
  const q = queryOf(request);
  return { ...Object.fromEntries(CALLBACK_PARAMETERS.map((p) => [p.name, q[p.name] ?? (p.required ? '' : undefined)])), browser_binding: binding };
}

/** `?mode=` of the routes that start a flow: redirect (the default) or json; null for anything else. */
function modeOf(request: FastifyRequest): 'redirect' | 'json' | null {
  const mode = queryOf(request).mode ?? 'redirect';
  return mode === 'redirect' || mode === 'json' ? mode : null;
}

const badMode = (request: FastifyRequest, reply: FastifyReply) => sendError(reply, 400, `mode: expected redirect or json, got ${JSON.stringify(queryOf(request).mode)}`);

/** The binding cookie, scoped to the provider's callback. Lax: the provider's redirect back is a top-level GET navigation. */
export function bindingCookie(provider: string, value: string, maxAgeSec: number, secure: boolean): string {
  return serializeCookie(BINDING_COOKIE, value, { path: callbackPath(provider), maxAgeSec, secure });
}

/** Where the callback of a flow a web page started sends the browser back to; scoped and timed like the binding. */
export function loginReturnCookie(provider: BoundProvider, path: string, maxAgeSec: number, secure: boolean): string {
  return serializeCookie(LOGIN_RETURN_COOKIE, path, { path: callbackPath(provider), maxAgeSec, secure });
}

const callbackPath = (provider: string) => `/v1/user/authenticate/${provider}/callback`;

const queryOf = (request: FastifyRequest) => {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries((request.query as Record<string, unknown> | undefined) ?? {})) out[k] = typeof v === 'string' ? v : Array.isArray(v) ? String(v[0]) : undefined;
  return out;
};
