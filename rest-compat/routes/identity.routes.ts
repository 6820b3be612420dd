import type { Route } from '../route-table.js';

/** Accounts, tokens and profiles (spec 4.1, 4.2, 5). Access classes come from the fields' @Access declarations. */
export const identityRoutes: Route[] = [
  { kind: 'graphql', method: 'POST', path: '/v1/user/auth/register', field: 'Mutation.registerAccount', status: 201, tag: 'identity', summary: 'Register a Regular account' },
  { kind: 'graphql', method: 'POST', path: '/v1/user/auth/login', field: 'Mutation.login', errors: [401], tag: 'identity', summary: 'Log in: access token (15 min) and refresh token (30 days)' },
  {
    kind: 'graphql',
    method: 'POST',
    path: '/v1/user/auth/register-service',
    field: 'Mutation.registerServiceAccount',
    status: 201,
    headerArgs: { 'x-service-secret': 'service_secret' },
    errors: [403],
    tag: 'identity',
    summary: 'Register a verified Service account (header X-Service-Secret)',
  },
  { kind: 'graphql', method: 'POST', path: '/v1/user/auth/refresh', field: 'Mutation.refreshSession', errors: [401], tag: 'identity', summary: 'Rotate a refresh token into a new token pair' },
  { kind: 'graphql', method: 'POST', path: '/v1/user/auth/logout', field: 'Mutation.logout', errors: [401], tag: 'identity', summary: 'Revoke a refresh token and its login' },
  {
    kind: 'graphql',
    method: 'POST',
    path: '/v1/user/auth/password',
    field: 'Mutation.setPassword',
    errors: [403],
    tag: 'identity',
    summary: 'Set the caller’s password (the first one of an account created by a social sign-in needs only the token; a change needs current_password)',
  },
  { kind: 'graphql', method: 'GET', path: '/v1/user/auth/keys', field: 'Query.tokenKeys', tag: 'identity', summary: 'Public keys (PASERK k4.public) that verify access tokens' },
  { kind: 'graphql', method: 'GET', path: '/v1/user/profile', field: 'Query.profile', tag: 'identity', summary: 'The caller’s profile' },
  { kind: 'graphql', method: 'PATCH', path: '/v1/user/profile', field: 'Mutation.updateProfile', bodyArg: 'input', errors: [403], tag: 'identity', summary: 'Update the caller’s profile' },
  { kind: 'graphql', method: 'POST', path: '/v1/user/profile/scientist-tag', field: 'Mutation.generateScientistTag', tag: 'identity', summary: 'Generate (or return) the caller’s scientist tag' },
  { kind: 'graphql', method: 'GET', path: '/v1/user/profile/{user_id}', field: 'Query.publicProfile', tag: 'identity', summary: 'Public profile of a user' },
  { kind: 'graphql', method: 'POST', path: '/v1/user/{user_id}/promote', field: 'Mutation.promoteToSuperUser', tag: 'identity', summary: 'Promote a Regular or Academic account to SuperUser' },
];
