import { AccessClass } from '../../lib/access.js';
import type { HandlerRoute } from '../route-table.js';
import { errorResponse } from '../openapi/error-responses.js';
import { AUTHORIZATION_REDIRECT } from './login-results.js';

// What the routes of every provider's login flow (institutional, ORCID, social) have in common.

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
  '404': errorResponse('the provider is not configured on this server'),
  '503': errorResponse('the provider cannot be reached'),
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
