import type { AccessClass, TokenNeed } from '../../lib/access.js';
import { ERROR_REASONS, ERROR_STATUS, SERVER_FAULT_CODE, codeForStatus } from '../../lib/errors.js';
import type { HttpMethod } from '../route-table.js';

type Json = Record<string, unknown>;

export const errorSchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: { error: { type: 'string', description: 'human-readable message' } },
};

export const STATUS_TEXT: Record<number, string> = {
  400: 'bad request: the message names the field and what was expected',
  401: 'missing, invalid or expired access token',
  403: "the access class is too low, the operation needs an account on this cluster (the token was issued by another cluster), or the personal API token's scope does not cover it (x-token-scope)",
  404: 'not found (or not visible to the caller)',
  408: 'the request exceeded the timeout',
  409: 'conflict with the stored state',
  413: 'request body too large',
  414: 'a path segment (or the whole URI) is too long',
  415: 'unsupported Content-Type (send application/json) or Content-Encoding (send gzip, deflate, br or none)',
  429: 'rate limited (see Retry-After)',
  431: 'the request line and headers are too large',
  500: 'internal error (the message carries no detail; quote X-Request-ID)',
  503: 'a service this operation needs is unavailable',
};

/** Every status the pipeline may answer before or around any operation. */
const PIPELINE = [400, 408, 414, 429, 431, 500, 503];
const BODY_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);

/**
 * The error statuses of one operation: the pipeline's, 413/415 where a body is read, 401 where a token is needed,
 * 403 above User and where an account on this cluster is needed (`localAccount`: a token of another cluster is
 * refused) or a personal API token may lack the scope (`tokenNeed` above read), and the operation's own (404, 409, ...).
 */
export function errorStatuses(method: HttpMethod, access: AccessClass, own: number[] = [], localAccount = false, tokenNeed: TokenNeed = 'read'): number[] {
  const codes = new Set([...PIPELINE, ...own]);
  if (BODY_METHODS.has(method)) {
    codes.add(413);
    codes.add(415);
  }
  if (access !== 'Public') codes.add(401);
  if (access === 'Academic' || access === 'SuperUser' || (access === 'User' && localAccount)) codes.add(403);
  if (tokenNeed !== 'read' && (access !== 'Public' || tokenNeed === 'login')) codes.add(403);
  return [...codes].sort((a, b) => a - b);
}

export function errorResponseRefs(statuses: number[]): Json {
  return Object.fromEntries(statuses.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));
}

export function errorResponseComponents(): Json {
  return Object.fromEntries(Object.entries(STATUS_TEXT).map(([status, description]) => [`E${status}`, withErrorHeaders(Number(status), errorResponse(description))]));
}

/** A route's own error answer: the one error body. Its headers are added to every error answer (withErrorHeaders). */
export const errorResponse = (description: string): Json => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** The codes an answer of `status` can carry in X-Error-Code (lib/errors.ts: ERROR_STATUS). */
function codesOf(status: number): string[] {
  const codes = Object.keys(ERROR_STATUS).filter((code) => ERROR_STATUS[code] === status);
  return codes.length ? codes : [status >= 500 ? SERVER_FAULT_CODE : codeForStatus(status)];
}

/**
 * `response` (the answer of `status`) with the headers every error answer of the one error body carries:
 * X-Error-Code, the error's stable code, which clients choose their handling by; on 403 also X-Error-Reason where
 * the refusal has one. Anything else (a reference, a success, /graphql's own answers) is returned as it is.
 */
export function withErrorHeaders(status: number, response: Json): Json {
  const schema = ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
  if (status < 400 || schema?.$ref !== '#/components/schemas/Error') return response;
  const headers: Json = {
    'X-Error-Code': {
      description: "the error's stable code (GraphQL's `extensions.code`); the message in the body is for people and may change",
      required: true,
      schema: { type: 'string', enum: codesOf(status) },
    },
  };
  const reasons = Object.keys(ERROR_REASONS).filter((r) => ERROR_STATUS[ERROR_REASONS[r as keyof typeof ERROR_REASONS]] === status);
  if (reasons.length) {
    headers['X-Error-Reason'] = {
      description: 'what the caller can do about it: ACADEMIC_REQUIRED (verify the account as academic), TOKEN_SCOPE (a token of a wider scope, or a login)',
      schema: { type: 'string', enum: reasons },
    };
  }
  return { ...response, headers: { ...((response.headers as Json | undefined) ?? {}), ...headers } };
}
