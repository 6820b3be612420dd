const param = (name: string, description: string, required = false) => ({ name, in: 'query', required, schema: { type: 'string' }, description });

/** The query parameters a login provider sends the browser back with (OAuth 2.0, RFC 9207), as OpenAPI documents them. */
export const CALLBACK_PARAMETERS = [
  param('state', 'the state of the authorization request', true),
  param('code', 'the authorization code'),
  param('iss', 'the issuer (RFC 9207), when the provider sends it'),
  param('error', "the provider's error, e.g. access_denied"),
  param('error_description', "the provider's error description"),
];
