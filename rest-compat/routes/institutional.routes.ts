import { AccessClass } from '../../lib/access.js';
import { CALLBACK_PARAMETERS } from './callback-parameters.js';
import type { GraphqlResult, HandlerRoute, Route } from '../route-table.js';
import { INSTITUTIONAL_RESULT, ORCID_RESULT } from './login-results.js';
import { PROVIDER_FAILURES, authorizeRoute } from './provider-flows.js';
import { errorResponse } from '../openapi/error-responses.js';

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
        '400': errorResponse('the request is unknown, used, expired, refused by the provider, or was started in another browser (no or another login_binding cookie); nothing changed'),
        '409': errorResponse('the identity at the provider already belongs to another account'),
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
