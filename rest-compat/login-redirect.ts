import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult } from 'graphql';
import { SOCIAL_PROVIDERS } from '../lib/config.js';
import { sendError } from '../lib/error-reply.js';
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
    institutionalAuthorize: authorizeHandler(run, 'startInstitutionalVerification', {}, { bindTo: 'institutional', secureCookies: opts.secureCookies }),
    institutionalCallback: boundCallbackHandler(run, 'institutional', 'completeInstitutionalVerification', INSTITUTIONAL_RESULT.selection, opts.secureCookies),
    orcidAuthorize: authorizeHandler(run, 'startOrcidLink', {}, { bindTo: 'orcid', secureCookies: opts.secureCookies }),
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


/**
 * `GET /v1/user/authenticate/<provider>/authorize`. With `bindTo`, the flow is bound to this browser in both modes:
 * a random value goes into an HttpOnly cookie scoped to the provider's callback, and the flow keeps its hash. In
 * json mode the cookie reaches the browser when the page calls this route itself (fetch with credentials).
 */
function authorizeHandler(
  run: RunOperation,
  field: string,
  args: Record<string, string> = {},
  bind?: { bindTo: string; secureCookies: boolean },
): Handler {
  const params = [...Object.keys(args).map((p) => `$${p}: String!`), ...(bind ? ['$browser_binding: String'] : [])];
  const passed = [...Object.keys(args), ...(bind ? ['browser_binding'] : [])].map((p) => `${p}: $${p}`);
  const signature = params.length ? `(${params.join(', ')})` : '';
  const call = passed.length ? `(${passed.join(', ')})` : '';
  const document = `mutation ${field}${signature} { ${field}${call} { ${AUTHORIZATION_REDIRECT.selection} } }`;
  return async (request, reply) => {
    const mode = modeOf(request);
    if (!mode) return badMode(request, reply);
    const binding = bind ? randomBytes(32).toString('base64url') : null;
    const result = await run(request, document, bind ? { ...args, browser_binding: binding } : args);
    if (result.errors?.[0]) return sendGraphqlError(request, reply, result.errors[0], 'authorize failed');
    const started = (result.data as Record<string, { authorization_url: string; expires_at: string }>)[field];
    // The URL carries a one-time state; no cache may keep it.
    reply.header('cache-control', 'no-store');
    if (bind) reply.header('set-cookie', bindingCookie(bind.bindTo, binding!, 600, bind.secureCookies));
    if (mode === 'json') return reply.code(200).type('application/json; charset=utf-8').send(started);
    return reply.redirect(started.authorization_url, 302);
  };
}

/**
 * `GET /v1/user/authenticate/<provider>/callback` of a flow bound by its authorize route (institutional
 * verification, ORCID linking): passes the binding cookie to the completing mutation, which refuses a browser
 * without it, and answers the mutation's result as JSON.
 */
function boundCallbackHandler(run: RunOperation, provider: string, field: string, selection: string, secureCookies: boolean): Handler {
  const document = `mutation ${field}(${CALLBACK_VARIABLES}) {
    ${field}(${CALLBACK_ARGUMENTS}) { ${selection} }
  }`;
  return async (request, reply) => {
    const binding = cookieOf(request, BINDING_COOKIE);
    const result = await run(request, document, callbackVariables(request, binding));
    if (binding) reply.header('set-cookie', bindingCookie(provider, '', 0, secureCookies));
    reply.header('cache-control', 'no-store');
    if (result.errors?.[0]) return sendGraphqlError(request, reply, result.errors[0], `${provider} callback failed`);
    return reply.code(200).type('application/json; charset=utf-8').send((result.data as Record<string, unknown>)[field]);
  };
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

function bindingCookie(provider: string, value: string, maxAgeSec: number, secure: boolean): string {
  // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
  return `${BINDING_COOKIE}=${value}; Path=/v1/user/authenticate/${provider}/callback; Max-Age=${maxAgeSec}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

const queryOf = (request: FastifyRequest) => {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries((request.query as Record<string, unknown> | undefined) ?? {})) out[k] = typeof v === 'string' ? v : Array.isArray(v) ? String(v[0]) : undefined;
  return out;
};

function cookieOf(request: FastifyRequest, name: string): string | null {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
