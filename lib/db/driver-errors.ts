import { BadInput, Conflict, ServiceUnavailable, causesOf } from '../errors.js';

/** The PostgreSQL error codes a store turns into an answer for the user; the rest are failures of the service. */
const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  invalidTextRepresentation: '22P02',
} as const;

export interface DriverError {
  /** The SQLSTATE, five digits or capital letters. */
  code: string;
  constraint?: string;
}

/**
 * The driver's error in `e`'s cause chain: node-postgres throws it directly, Drizzle wraps it once
 * (DrizzleQueryError) and a transaction may wrap that again.
 */
export function driverError(e: unknown): DriverError | undefined {
  for (const cur of causesOf(e)) if (typeof cur.code === 'string' && /^[0-9A-Z]{5}$/.test(cur.code)) return cur as DriverError;
  return undefined;
}

/** What a request is told when its session ended under it (a failover, a restart, an idle timeout). */
export const CONNECTION_LOST = 'the relational database connection was lost; retry';
/** What a request is told when no session can be opened (the server is down, starting, or refuses this database). */
export const DATABASE_UNREACHABLE = 'the relational database cannot be reached; retry later';

/**
 * SQLSTATEs that end the session, or refuse one: connection exceptions (class 08), the server shutting down or
 * starting (57P01-57P03), the session or transaction idle timeouts (57P05, 25P03), no free connection slot (53300).
 */
const SESSION_ENDED = /^(08...|57P0[1235]|25P03|53300)$/;
/** Socket errors of node-postgres's connection. */
const SOCKET_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOENT']);
/** node-postgres's own errors for a connection that ended or never answered. */
const DRIVER_MESSAGES = /Connection terminated|not queryable|timeout exceeded when trying to connect/i;

/**
 * The ServiceUnavailable (503, retryable) for an error that says the database session is gone rather than that the
 * statement failed; undefined for any other error. Walks `e`'s causes as driverError does.
 */
export function connectionLost(e: unknown, message = CONNECTION_LOST): ServiceUnavailable | undefined {
  for (const cur of causesOf(e)) {
    if (cur instanceof ServiceUnavailable) return cur;
    const code = typeof cur.code === 'string' ? cur.code : '';
    if (SESSION_ENDED.test(code) || SOCKET_ERRORS.has(code) || (typeof cur.message === 'string' && DRIVER_MESSAGES.test(cur.message))) {
      return new ServiceUnavailable(code === '57P03' || code === '53300' ? DATABASE_UNREACHABLE : message, e);
    }
  }
  return undefined;
}

export const isUniqueViolation = (e: unknown): boolean => driverError(e)?.code === SQLSTATE.uniqueViolation;

/** What a store tells the user for the driver errors it expects; an error without a message here stays internal. */
export interface DriverErrorMessages {
  /** A unique violation (Conflict), given the constraint's name. */
  unique?: (constraint: string) => string;
  /** A foreign key violation (Conflict). */
  foreignKey?: string;
  /** A value the column type cannot read (BadInput). */
  badFormat?: string;
}

/**
 * The error a store throws for a failed query: ServiceUnavailable when the session was lost (connectionLost), Conflict
 * or BadInput where `messages` says what the failure means to the user, otherwise an Error naming the query with the driver's error as `cause`, so services never see driver
 * errors.
 */
export function queryError(e: unknown, name: string, messages: DriverErrorMessages = {}): Error {
  const lost = connectionLost(e);
  if (lost) return lost;
  const err = driverError(e);
  if (err?.code === SQLSTATE.uniqueViolation && messages.unique) return new Conflict(messages.unique(err.constraint ?? ''));
  if (err?.code === SQLSTATE.foreignKeyViolation && messages.foreignKey) return new Conflict(messages.foreignKey);
  if (err?.code === SQLSTATE.invalidTextRepresentation && messages.badFormat) return new BadInput(messages.badFormat);
  return new Error(`query ${name} failed`, { cause: e });
}
