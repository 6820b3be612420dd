import type { GraphqlResult } from '../route-table.js';

/**
 * What the login routes' handlers (login-redirect.ts) answer: the result of a GraphQL selection, which the OpenAPI
 * document describes from the schema. A selection of every field of its type is documented as that type's component.
 */
export const AUTHORIZATION_REDIRECT: GraphqlResult = { graphqlType: 'AuthorizationRedirect', selection: 'authorization_url expires_at' };
export const INSTITUTIONAL_RESULT: GraphqlResult = {
  graphqlType: 'InstitutionalVerificationResult',
  selection: 'verified account_type issuer institution email email_domain affiliations verified_at refresh_required message',
};
export const ORCID_RESULT: GraphqlResult = { graphqlType: 'OrcidLink', selection: 'linked orcid orcid_url name linked_at' };
/** A social sign-in's session (mode=json) and a link's identity, the two answers of a social callback. */
export const SOCIAL_SESSION: GraphqlResult = {
  graphqlType: 'SocialSession',
  selection: 'access_token refresh_token token_type expires_in refresh_expires_in account_id account_created provider',
};
export const LINKED_IDENTITY: GraphqlResult = { graphqlType: 'LinkedIdentity', selection: 'provider issuer subject username name email linked_at' };
