import { AccessClass } from '../../lib/access.js';
import { CALLBACK_PARAMETERS } from './callback-parameters.js';
import type { GraphqlResult, HandlerRoute, Route } from '../route-table.js';
import { AUTHORIZATION_REDIRECT, INSTITUTIONAL_RESULT, ORCID_RESULT } from './login-results.js';

export const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** The `mode` query parameter of the routes that start a flow at a provider. */
export const modeParameter = (description: string) => ({
  name: 'mode',
  in: 'query',
  required: false,
  schema: { type: 'string', enum: ['redirect', 'json'], default: 'redirect' },
  description,
});

/** What the routes that start a flow answer in json mode, and every provider route when the provider fails. */
export const AUTHORIZATION_JSON = { description: 'with mode=json: where to send the browser', content: { 'application/json': { schema: AUTHORIZATION_REDIRECT } } };
export const PROVIDER_FAILURES = {
  '404': { description: 'the provider is not configured on this server', content: errorBody },
  '503': { description: 'the provider cannot be reached', content: errorBody },
};

export function authorizeRoute(provider: string, handler: string, summary: string): HandlerRoute {
  return {
    kind: 'handler',
    method: 'GET',
    path: `/v1/user/authenticate/${provider}/authorize`,
    handler,
    access: AccessClass.User,
    // Verification and linking need the person, signed in, in the browser that will come back.
    tokenNeed: 'login',
    tag: 'identity',
    summary,
    openapi: {
      parameters: [modeParameter('redirect: 302 to the provider; json: the provider URL in the body, for clients that open it in a browser themselves')],
      responses: {
        '302': {
          description: 'redirect to the provider (authorization code with PKCE S256, state and nonce; valid for 10 minutes, once)',
          headers: { Location: { schema: { type: 'string', format: 'uri' } } },
        },
        '200': AUTHORIZATION_JSON,
        ...PROVIDER_FAILURES,
      },
    },
  };
}

/**
 * The provider callback of a flow bound to the browser that started it at /authorize (the login_binding cookie):
 * a browser without that cookie is refused and nothing changes.
 */
function boundCallbackRoute(provider: string, handler: string, summary: string, result: { description: string; schema: GraphqlResult }): HandlerRoute {
  return {
    kind: 'handler',
    method: 'GET',
    path: `/v1/user/authenticate/${provider}/callback`,
    handler,
    access: AccessClass.Public,
    tokenNeed: 'login',
    tag: 'identity',
    summary,
    openapi: {
      parameters: CALLBACK_PARAMETERS,
      responses: {
        '200': { description: result.description, content: { 'application/json': { schema: result.schema } } },
        '400': {
          description: 'the request is unknown, used, expired, refused by the provider, or was started in another browser (no or another login_binding cookie); nothing changed',
          content: errorBody,
        },
        '409': { description: 'the identity at the provider already belongs to another account', content: errorBody },
        ...PROVIDER_FAILURES,
      },
    },
  };
}

/** Institutional verification (spec 4.2, 5.8) and ORCID iD linking (5.7); docs/identity-providers.md. */
export const institutionalRoutes: Route[] = [
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/user/authenticate/institutional',
    field: 'Query.institutionalVerification',
    tag: 'identity',
    summary: 'Academic metadata of the current user: account type, verified, institution, affiliations (verified=false before verification)',
  },
  authorizeRoute('institutional', 'institutionalAuthorize', 'Starts institutional verification (OAuth 2.0 with PKCE): 302 to the institutional provider, or JSON with mode=json; both set the login_binding cookie only this browser can complete it with'),
  boundCallbackRoute(
    'institutional',
    'institutionalCallback',
    'Where the institutional provider sends the browser back (with the cookie set at /authorize); marks the account verified Academic. Refresh tokens afterwards.',
    { description: 'the account is verified; the institutional metadata', schema: INSTITUTIONAL_RESULT },
  ),
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/user/authenticate/orcid',
    field: 'Query.orcidLink',
    tag: 'identity',
    summary: 'The ORCID iD linked to the current account (linked=false when none)',
  },
  authorizeRoute('orcid', 'orcidAuthorize', 'Starts linking an ORCID iD to the current account (OAuth 2.0 with PKCE): 302 to the provider, or JSON with mode=json; both set the login_binding cookie only this browser can complete it with'),
  boundCallbackRoute(
    'orcid',
    'orcidCallback',
    'Where the researcher-ID provider sends the browser back (with the cookie set at /authorize); links the ORCID iD to the account that started the request',
    { description: 'the linked ORCID iD', schema: ORCID_RESULT },
  ),
  {
    kind: 'graphql',
    method: 'DELETE',
    path: '/v1/user/authenticate/orcid',
    field: 'Mutation.unlinkOrcid',
    tag: 'identity',
    summary: 'Unlinks the ORCID iD from the current account',
  },
];
