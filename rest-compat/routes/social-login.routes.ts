import { AccessClass } from '../../lib/access.js';
import { SOCIAL_PROVIDERS } from '../../lib/config.js';
import { PROVIDER_NAMES } from '../../lib/auth/provider-names.js';
import { CALLBACK_PARAMETERS } from './callback-parameters.js';
import type { HandlerRoute, Route } from '../route-table.js';
import { AUTHORIZATION_JSON, PROVIDER_FAILURES, authorizeRoute, modeParameter } from './provider-flows.js';
import { errorResponse } from '../openapi/error-responses.js';
import { LINKED_IDENTITY, SOCIAL_SESSION } from './login-results.js';


function loginRoute(provider: string, label: string): HandlerRoute {
  return {
    kind: 'handler',
    method: 'GET',
    path: `/v1/user/authenticate/${provider}/login`,
    handler: `${provider}Login`,
    access: AccessClass.Public,
    tag: 'identity',
    summary: `Signs in with ${label}: 302 to the provider (and back to LOGIN_RETURN_URL with a login_code), or mode=json`,
    openapi: {
      parameters: [
        modeParameter(
          'redirect: 302 to the provider; the callback later sends the browser to LOGIN_RETURN_URL?login_code=…, to be exchanged at POST /v1/user/auth/exchange (needs the cookie set here). json: the provider URL in the body, and the callback answers the token pair as JSON',
        ),
      ],
      responses: {
        '302': {
          description: 'redirect to the provider (authorization code with PKCE S256 and state; valid for 10 minutes, once); sets the browser-binding cookie',
          headers: { Location: { schema: { type: 'string', format: 'uri' } }, 'Set-Cookie': { schema: { type: 'string' } } },
        },
        '200': AUTHORIZATION_JSON,
        ...PROVIDER_FAILURES,
      },
    },
  };
}

function callbackRoute(provider: string, label: string): HandlerRoute {
  return {
    kind: 'handler',
    method: 'GET',
    path: `/v1/user/authenticate/${provider}/callback`,
    handler: `${provider}Callback`,
    access: AccessClass.Public,
    tokenNeed: 'login',
    tag: 'identity',
    summary: `Where ${label} sends the browser back: completes a sign-in or a link`,
    openapi: {
      parameters: CALLBACK_PARAMETERS,
      responses: {
        '302': {
          description: 'a sign-in started with mode=redirect: to LOGIN_RETURN_URL with login_code (single use, 60 s) and provider; never tokens',
          headers: { Location: { schema: { type: 'string', format: 'uri' } } },
        },
        '200': {
          description: 'a sign-in started with mode=json: the token pair of a new session; a link: the linked identity',
          content: { 'application/json': { schema: { oneOf: [SOCIAL_SESSION, LINKED_IDENTITY] } } },
        },
        '409': errorResponse('an account already has the email this identity brings: log in to it and link the provider from the profile; or the identity is linked to another account'),
        ...PROVIDER_FAILURES,
      },
    },
  };
}

/** Social sign-in and identity linking (spec 5.7); docs/identity-providers.md. */
export const socialLoginRoutes: Route[] = [
  ...SOCIAL_PROVIDERS.flatMap((provider) => [
    loginRoute(provider, PROVIDER_NAMES[provider].provider),
    authorizeRoute(provider, `${provider}Authorize`, `Links an identity at ${PROVIDER_NAMES[provider].provider} to the current account: 302 to the provider, or JSON with mode=json`),
    callbackRoute(provider, PROVIDER_NAMES[provider].provider),
  ]),
  {
    kind: 'graphql',
    method: 'POST',
    path: '/v1/user/auth/exchange',
    field: 'Mutation.exchangeLoginCode',
    errors: [401],
    tag: 'identity',
    summary: 'Exchanges the login_code of a social sign-in (mode=redirect) for an access and refresh token (once, within 60 s)',
  },
  {
    kind: 'graphql',
    method: 'GET',
    path: '/v1/user/authenticate/identities',
    field: 'Query.loginMethods',
    tag: 'identity',
    summary: 'How the current account can log in: has_password and the linked external identities',
  },
  {
    kind: 'graphql',
    method: 'DELETE',
    path: '/v1/user/authenticate/identities/{provider}',
    field: 'Mutation.unlinkIdentity',
    tag: 'identity',
    summary: `Unlinks the identity at a social login provider (${SOCIAL_PROVIDERS.join(', ')}) unless it is the last way to log in (409)`,
  },
];
