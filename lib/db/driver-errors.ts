import { BadInput, Conflict } from '../errors.js';

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
  let cur = e as { code?: unknown; constraint?: string; cause?: unknown } | undefined;
  for (let i = 0; cur && i < 5; i++) {
    if (typeof cur.code === 'string' && /^[0-9A-Z]{5}$/.test(cur.code)) return cur as DriverError;
    cur = cur.cause as typeof cur;
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
 * The error a store throws for a failed query: Conflict or BadInput where `messages` says what the failure means to
 * the user, otherwise an Error naming the query with the driver's error as `cause`, so services never see driver
 * errors.
 */
export function queryError(e: unknown, name: string, messages: DriverErrorMessages = {}): Error {
  const err = driverError(e);
  if (err?.code === SQLSTATE.uniqueViolation && messages.unique) return new Conflict(messages.unique(err.constraint ?? ''));
  if (err?.code === SQLSTATE.foreignKeyViolation && messages.foreignKey) return new Conflict(messages.foreignKey);
  if (err?.code === SQLSTATE.invalidTextRepresentation && messages.badFormat) return new BadInput(messages.badFormat);
  return new Error(`query ${name} failed`, { cause: e });
}
