import { describe, it, expect } from 'vitest';
import { GraphQLError } from 'graphql';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { BadInput, codeOf, exposedMessage, statusForCode } from '../errors.js';
import { CONNECTION_LOST, DATABASE_UNREACHABLE, connectionLost, queryError } from './driver-errors.js';

/** An error as node-postgres makes one from the server's ErrorResponse. */
const serverError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('connectionLost', () => {
  it('is a 503 for a session the server ended or a socket that broke, whatever wraps it', () => {
    for (const e of [
      serverError('57P01', 'terminating connection due to administrator command'),
      serverError('25P03', 'terminating connection due to idle-in-transaction timeout'),
      serverError('08006', 'connection failure'),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      const lost = connectionLost(new DrizzleQueryError('select 1', [], e));
      expect(lost?.message, e.message).toBe(CONNECTION_LOST);
      expect(statusForCode(lost && codeOf(lost))).toBe(503);
    }
    expect(connectionLost(serverError('57P03', 'the database system is starting up'))?.message).toBe(DATABASE_UNREACHABLE);
  });

  it('leaves the statement’s own failures to the store: a unique violation, a cancelled statement, a bad value', () => {
    expect(connectionLost(serverError('23505', 'duplicate key value'))).toBeUndefined();
    expect(connectionLost(serverError('57014', 'canceling statement due to user request'))).toBeUndefined();
    expect(queryError(serverError('22P02', 'invalid input syntax'), 'Store.read', { badFormat: 'id: not a uuid' })).toBeInstanceOf(BadInput);
  });
});

describe('a lost connection seen through the layers above the store', () => {
  it('keeps its code and message through the ORM, GraphQL and the gateway, and the statement stays out of the message', () => {
    const lost = connectionLost(serverError('57P01', 'terminating connection due to administrator command'))!;
    const orm = new DrizzleQueryError('select secret from t where id = $1', ['42'], lost);
    const inSubgraph = new GraphQLError(orm.message, { originalError: orm });
    const atGateway = new GraphQLError(inSubgraph.message, { originalError: inSubgraph, extensions: { code: 'DOWNSTREAM_SERVICE_ERROR' } });
    for (const e of [orm, inSubgraph, atGateway, new Error('query Store.read failed', { cause: orm })]) {
      expect(codeOf(e)).toBe('SERVICE_UNAVAILABLE');
      expect(exposedMessage(e)).toBe(CONNECTION_LOST);
    }
    // An error with a code of its own keeps it, and its message.
    const refused = new GraphQLError('name: too long', { originalError: new BadInput('name: too long'), extensions: { code: 'BAD_USER_INPUT' } });
    expect(codeOf(refused)).toBe('BAD_USER_INPUT');
    expect(exposedMessage(refused)).toBe('name: too long');
  });
});
