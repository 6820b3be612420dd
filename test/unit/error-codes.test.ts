import { describe, it, expect } from 'vitest';
import {
  BadInput,
  Conflict,
  Forbidden,
  HeadersTooLarge,
  NotFound,
  RateLimited,
  Timeout,
  Unauthenticated,
  PayloadTooLarge,
  ServiceUnavailable,
  UnsupportedMediaType,
  UriTooLong,
  statusForCode,
  codeOf,
  isExposed,
} from '../../lib/errors.js';
import { restMessage } from '../../rest-compat/sofa.js';
import { maskServerErrors } from '../../gateway/app.js';

describe('error codes', () => {
  it('map to the statuses of the API', () => {
    const cases: [Error, number][] = [
      [new BadInput('x'), 400],
      [new Unauthenticated(), 401],
      [new Forbidden(), 403],
      [new NotFound(), 404],
      [new Timeout(), 408],
      [new Conflict('x'), 409],
      [new PayloadTooLarge(), 413],
      [new UriTooLong(), 414],
      [new UnsupportedMediaType(), 415],
      [new HeadersTooLarge(), 431],
      [new RateLimited(), 429],
      [new ServiceUnavailable('x'), 503],
    ];
    for (const [err, status] of cases) expect(statusForCode(codeOf(err))).toBe(status);
    expect(statusForCode('GRAPHQL_VALIDATION_FAILED')).toBe(400);
    expect(statusForCode('UNAUTHORIZED')).toBe(403);
    expect(statusForCode('INTERNAL_SERVER_ERROR')).toBe(500);
    expect(statusForCode(undefined)).toBe(500);
  });

  it('hide the message of a real fault from clients', () => {
    const masked = maskServerErrors({ message: 'relation "x" does not exist', extensions: { code: 'INTERNAL_SERVER_ERROR' } }, new Error('relation "x" does not exist'));
    expect(masked.message).toBe('internal server error');
    const kept = maskServerErrors({ message: 'no term with id 1', extensions: { code: 'NOT_FOUND' } }, new NotFound('no term with id 1'));
    expect(kept.message).toBe('no term with id 1');
  });

  it('show clients the message of every 4xx and of a 503, and of no other 5xx', () => {
    expect([400, 404, 429, 431, 503].every(isExposed)).toBe(true);
    expect([500, 501, 502, 504].some(isExposed)).toBe(false);
  });

  it('name REST fields instead of GraphQL variables', () => {
    expect(restMessage('Variable "$email" of required type "String!" was not provided.')).toBe('email is required');
    expect(restMessage('Variable "$limit" got invalid value "x"; Int cannot represent non-integer value: "x"')).toBe(
      'limit: Int cannot represent non-integer value: "x" (got "x")',
    );
  });
});
