import { AccessClass } from '../../lib/access.js';
import type { HandlerRoute, Route } from '../route-table.js';

export const authorizationRedirect = {
  type: 'object',
  required: ['authorization_url', 'expires_at'],
  properties: {
    authorization_url: { type: 'string', format: 'uri', description: 'open this URL in the browser' },
    expires_at: { type: 'string', format: 'date-time', description: 'the callback is refused after this time' },
  },
};

export const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

export function authorizeRoute(provider: string, handler: string, summary: string): HandlerRoute {
  return {
    kind: 'handler',
    method: 'GET',
    path: `/v1/user/authenticate/${provider}/authorize`,
    handler,
    access: AccessClass.User,
    tag: 'identity',
    summary,
    openapi: {
      parameters: [
        {
          name: 'mode',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['redirect', 'json'], default: 'redirect' },
          description: 'redirect: 302 to the provider; json: the provider URL in the body, for clients that open it in a browser themselves',
        },
      ],
      responses: {
        '302': {
          description: 'redirect to the provider (authorization code with PKCE S256, state and nonce; valid for 10 minutes, once)',
          headers: { Location: { schema: { type: 'string', format: 'uri' } } },
        },
        '200': { description: 'with mode=json: where to send the browser', content: { 'application/json': { schema: authorizationRedirect } } },
        '404': { description: 'the provider is not configured on this server', content: errorBody },
        '503': { description: 'the provider cannot be reached', content: errorBody },
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
  authorizeRoute('institutional', 'institutionalAuthorize', 'Starts institutional verification (OAuth 2.0 with PKCE): 302 to the institutional provider, or JSON with mode=json'),
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/user/authenticate/institutional/callback',
    field: 'Mutation.completeInstitutionalVerification',
    tag: 'identity',
    summary: 'Where the institutional provider sends the browser back; marks the account verified Academic. Refresh tokens afterwards.',
  },
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/user/authenticate/orcid',
    field: 'Query.orcidLink',
    tag: 'identity',
    summary: 'The ORCID iD linked to the current account (linked=false when none)',
  },
  authorizeRoute('orcid', 'orcidAuthorize', 'Starts linking an ORCID iD to the current account (OAuth 2.0 with PKCE): 302 to the provider, or JSON with mode=json'),
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/user/authenticate/orcid/callback',
    field: 'Mutation.completeOrcidLink',
    tag: 'identity',
    summary: 'Where the researcher-ID provider sends the browser back; links the ORCID iD to the account that started the request',
  },
  {
    kind: 'graphql',
    method: 'DELETE',
    path: '/v1/user/authenticate/orcid',
    field: 'Mutation.unlinkOrcid',
    tag: 'identity',
    summary: 'Unlinks the ORCID iD from the current account',
  },
];
