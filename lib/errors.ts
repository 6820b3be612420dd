import { GraphQLError } from 'graphql';

/**
 * Stable error codes and the HTTP status each one becomes. The REST layer, the pipeline and the docs all read this
 * table; GraphQL clients see the code in `extensions.code`.
 */
export const ERROR_STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  GRAPHQL_PARSE_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  UNAUTHORIZED: 403, // type-graphql's code for a failed @Authorized check
  NOT_FOUND: 404,
  TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  SERVICE_UNAVAILABLE: 503,
};

/** Status for an error code; anything unknown is a server fault. */
export function statusForCode(code: unknown): number {
  return (typeof code === 'string' && ERROR_STATUS[code]) || 500;
}

/** The code of a fault: what a client sees of any error without a code of its own above. */
export const SERVER_FAULT_CODE = 'INTERNAL_SERVER_ERROR';

/** The code an error answer of `status` carries when nothing more specific is known: the table's first for it. */
export function codeForStatus(status: number): string {
  for (const [code, s] of Object.entries(ERROR_STATUS)) if (s === status) return code;
  return SERVER_FAULT_CODE;
}

/**
 * Refusals a caller fixes in a way of their own, told apart within their code (`extensions.reason` in GraphQL, the
 * `X-Error-Reason` header in REST): the code stays the stable FORBIDDEN that clients already compare with.
 */
export const ERROR_REASONS = {
  /** The operation needs a verified academic account (institutional login, or a SuperUser's verification). */
  ACADEMIC_REQUIRED: 'FORBIDDEN',
  /** A personal API token's scope does not cover the operation, or it needs a signed-in person and no token does. */
  TOKEN_SCOPE: 'FORBIDDEN',
} as const;
export type ErrorReason = keyof typeof ERROR_REASONS;

/** The reason of an error, whatever layer rebuilt it (see ERROR_REASONS). */
export function reasonOf(err: unknown): ErrorReason | undefined {
  for (const cur of causesOf(err)) {
    const reason = (cur as { extensions?: { reason?: unknown } }).extensions?.reason;
    if (typeof reason === 'string' && reason in ERROR_REASONS) return reason as ErrorReason;
  }
  return undefined;
}

export const GENERIC_SERVER_ERROR = 'internal server error';

/**
 * Whether the message of an error with this status is meant for the client: every 4xx, and 503, whose message says
 * which part of the service is unavailable ("not configured", "store unavailable"). Any other 5xx is a fault: the
 * client gets GENERIC_SERVER_ERROR and the original is logged.
 */
export const isExposed = (status: number): boolean => status < 500 || status === 503;

export class AppError extends GraphQLError {
  constructor(code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message, { extensions: { code, ...extra } });
    this.name = new.target.name;
  }
  get code(): string {
    return this.extensions.code as string;
  }
  get status(): number {
    return statusForCode(this.code);
  }
}

export class BadInput extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super('BAD_USER_INPUT', message, extra);
  }
}
export class Unauthenticated extends AppError {
  constructor(message = 'authentication required: send Authorization: Bearer <access_token>') {
    super('UNAUTHENTICATED', message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'insufficient permissions', reason?: ErrorReason) {
    super('FORBIDDEN', message, reason ? { reason } : {});
  }
}
export class NotFound extends AppError {
  constructor(message = 'not found') {
    super('NOT_FOUND', message);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}
export class Timeout extends AppError {
  constructor(message = 'the request exceeded the timeout') {
    super('TIMEOUT', message);
  }
}
export class PayloadTooLarge extends AppError {
  constructor(message = 'request body too large') {
    super('PAYLOAD_TOO_LARGE', message);
  }
}
/** A path segment is longer than the router reads (a whole request line that is too long is a 431). */
export class UriTooLong extends AppError {
  constructor(message = 'the URI is too long') {
    super('URI_TOO_LONG', message);
  }
}
export class UnsupportedMediaType extends AppError {
  constructor(message = 'unsupported Content-Type: send application/json') {
    super('UNSUPPORTED_MEDIA_TYPE', message);
  }
}
export class HeadersTooLarge extends AppError {
  constructor(message = 'the request headers (with the request line) are too large') {
    super('REQUEST_HEADER_FIELDS_TOO_LARGE', message);
  }
}
export class RateLimited extends AppError {
  constructor(
    message = 'too many requests',
    readonly retryAfterSec = 1,
  ) {
    super('RATE_LIMITED', message, { retryAfter: retryAfterSec });
  }
}
export class ServiceUnavailable extends AppError {
  /** `cause`: what the store said (paths, the server's reply), for the operators' log; never in the message. */
  constructor(message: string, cause?: unknown) {
    super('SERVICE_UNAVAILABLE', message);
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

type Cause = { code?: unknown; message?: unknown; constraint?: unknown; originalError?: unknown; cause?: unknown };

/**
 * `err` and the errors below it, nearest first: what a layer rebuilt (GraphQL's `originalError`) or wrapped (`cause`:
 * the ORM's "Failed query", a driver's socket error). Bounded, as a cycle of causes is possible.
 */
export function* causesOf(err: unknown, depth = 8): Generator<Cause> {
  let cur = err as Cause | null | undefined;
  for (let i = 0; cur && typeof cur === 'object' && i < depth; i++) {
    yield cur;
    cur = (cur.originalError ?? cur.cause) as typeof cur;
  }
}

/** `fn` with what it rejects with replaced by `map(error, args)`: a store's faults told in the service's terms. */
export function mapRejections<A extends unknown[], R>(fn: (...args: A) => Promise<R>, map: (e: unknown, args: A) => unknown): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (e) {
      throw map(e, args);
    }
  };
}

/**
 * The status a thrown error is answered with: its code's when it has one (an application error), otherwise the
 * framework's status for it, where any 5xx counts as a fault (500): only an application error's code makes a 5xx
 * message one for the client (isExposed).
 */
export function statusOfThrown(err: unknown): number {
  const code = codeOf(err);
  if (code) return statusForCode(code);
  // Fastify's errors carry `statusCode`, a stream's refusal (a body that does not decompress) `status`.
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.statusCode === 'number' ? e.statusCode : e?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
}

/** Reads the code of anything thrown or returned as a GraphQL error, whatever layer rebuilt it. */
export function codeOf(err: unknown): string | undefined {
  const own = ownCodeOf(err);
  return own === undefined || GENERIC_CODES.has(own) ? (unavailableIn(err)?.code ?? own) : own;
}

/** The codes a layer gives an error it knows nothing about (Apollo's, the gateway's for a subgraph's error). */
const GENERIC_CODES = new Set([SERVER_FAULT_CODE, 'DOWNSTREAM_SERVICE_ERROR']);

function ownCodeOf(err: unknown): string | undefined {
  const e = err as { extensions?: { code?: unknown }; originalError?: unknown };
  if (typeof e?.extensions?.code === 'string') return e.extensions.code;
  if (e?.originalError && e.originalError !== err) return ownCodeOf(e.originalError);
  return undefined;
}

/**
 * The ServiceUnavailable among `err`'s causes: a store that lost its connection says so from below the ORM, which
 * wraps it (Drizzle's "Failed query: <statement>"), and the client is told the store's message, never the wrapper's.
 */
export function unavailableIn(err: unknown): ServiceUnavailable | undefined {
  for (const cur of causesOf(err)) if (cur instanceof ServiceUnavailable) return cur;
  return undefined;
}

/** The message of an error a client may see: its own, or that of the ServiceUnavailable it wraps (unavailableIn). */
export function exposedMessage(err: unknown): string {
  const own = (err as { message?: unknown } | null)?.message;
  const code = ownCodeOf(err);
  if (code === undefined || GENERIC_CODES.has(code)) {
    const lost = unavailableIn(err);
    if (lost) return lost.message;
  }
  return typeof own === 'string' ? own : String(err);
}
