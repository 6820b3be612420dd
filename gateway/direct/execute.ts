import { GraphQLError, getVariableValues, type FormattedExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { ERRORS, errorCodeDef } from '@apollo/federation-internals';
import type { RequestContext } from '../../lib/context.js';
import type { OperationCheck } from '../operation-guards.js';
import type { DirectOperation, DirectOperations } from './operations.js';

/** What the direct path answers: the result as Apollo Server would send it, and the HTTP status its errors carry. */
export interface DirectAnswer {
  result: FormattedExecutionResult;
  /** Set when an error carries one (`extensions.http.status`); otherwise 200. */
  status?: number;
}

export interface DirectExecutorOptions {
  operations: DirectOperations;
  apiSchema: GraphQLSchema;
  /** The operation checks Apollo Server runs once the operation is resolved, in the same order. */
  checks: OperationCheck<RequestContext>[];
  /** What Apollo Server's plugins do with the errors of a result (logging them, hiding suggestions). */
  onErrors(errors: readonly GraphQLError[], context: RequestContext): void;
  /** Apollo Server's formatError. */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
}

export type DirectExecutor = (
  request: { query: string; variables?: Record<string, unknown>; operationName?: string | null },
  context: RequestContext,
) => Promise<DirectAnswer | undefined>;

/** How many operations the direct path answered, and how many it handed to Apollo Server. */
export interface DirectStats {
  taken: number;
  declined: number;
  /** Operations readied before their first request (the REST routes'). */
  readied: number;
}

/**
 * Runs operations whose plan is root fetches from in-process subgraphs on those subgraphs directly: the checks,
 * variable coercion, fetches, error mapping and error formatting of Apollo Server and the gateway, without their
 * request pipeline and the gateway's reshaping of an answer that already has the operation's shape. Answers
 * undefined, before anything has run, when the operation is not one it takes, or would be refused (a check or a
 * variable fails): the caller then hands it to Apollo Server, which answers it, errors included, as always.
 */
export function directExecutor(opts: DirectExecutorOptions): DirectExecutor & { stats: DirectStats; prepare(text: string, operationName?: string): void } {
  const stats: DirectStats = { taken: 0, declined: 0, readied: 0 };
  const decline = () => {
    stats.declined++;
    return undefined;
  };
  const run: DirectExecutor = async (request, context) => {
    const op = opts.operations.get(request.query, request.operationName);
    if (!op) return decline();
    const variables = request.variables ?? {};
    const rc = { document: op.document, operation: op.operation, request: { query: request.query, variables, operationName: request.operationName ?? undefined }, contextValue: context, schema: opts.apiSchema };
    try {
      for (const check of opts.checks) await check(rc as never);
    } catch {
      return decline();
    }
    if (op.operation.variableDefinitions?.length && getVariableValues(opts.apiSchema, op.operation.variableDefinitions, variables).errors) return decline();
    stats.taken++;
    return executeDirect(op, variables, context, opts);
  };
  /** Readies an operation before its first request: DirectOperations keeps what it decides. */
  const prepare = (text: string, operationName?: string) => {
    opts.operations.get(text, operationName);
    stats.readied++;
  };
  return Object.assign(run, { stats, prepare });
}

async function executeDirect(op: DirectOperation, variables: Record<string, unknown>, context: RequestContext, opts: DirectExecutorOptions): Promise<DirectAnswer> {
  const errors: GraphQLError[] = [];
  const answers = await Promise.all(
    op.fetches.map((_, i) =>
      fetchRoot(op, i, variables, context, errors).catch((e: unknown) => {
        // A data source that throws fails its fetch only, as in the gateway: its fields are null.
        errors.push(e instanceof GraphQLError ? e : new GraphQLError(e instanceof Error ? e.message : String(e), { originalError: e instanceof Error ? e : undefined }));
        return undefined;
      }),
    ),
  );
  // The root fields in the operation's order; a null (or missing) non-null one makes the whole data null.
  let data: Record<string, unknown> | null = {};
  for (const k of op.rootKeys) {
    const value = answers[k.fetch]?.[k.key];
    if (value === null || value === undefined) {
      if (k.nonNull) {
        data = null;
        break;
      }
      data[k.key] = null;
    } else {
      data[k.key] = value;
    }
  }
  if (errors.length === 0) return { result: { data } };
  return formatted(errors, data, context, opts);
}

/**
 * One root fetch, as the gateway sends it: only the variables it uses, and the subgraph's errors mapped as the
 * gateway maps them (their service named, their code kept or set). Returns the subgraph's data: null when a
 * non-null root field failed, undefined when the subgraph answered none.
 */
async function fetchRoot(op: DirectOperation, index: number, variables: Record<string, unknown>, context: RequestContext, errors: GraphQLError[]) {
  const fetch = op.fetches[index];
  const sent: Record<string, unknown> = Object.create(null);
  for (const name of fetch.variableUsages) if (Object.hasOwn(variables, name) && variables[name] !== undefined) sent[name] = variables[name];
  const response = await fetch.dataSource.process({
    // The gateway's GraphQLDataSourceRequestKind.INCOMING_OPERATION (the enum is not exported).
    kind: 'incoming operation' as never,
    request: { query: fetch.operation, variables: sent, operationName: fetch.operationName },
    context: context as never,
    incomingRequestContext: undefined as never,
  });
  if (response.errors) for (const error of response.errors) errors.push(downstreamError(error as GraphQLError, fetch.serviceName));
  return response.data as Record<string, unknown> | null | undefined;
}

/** The gateway's downstreamServiceError: the message kept, the service named, a code kept or set. */
function downstreamError(original: GraphQLError, serviceName: string): GraphQLError {
  const message = original.message || `Error while fetching subquery from service "${serviceName}"`;
  const options = { originalError: original, path: original.path ? [...original.path] : undefined, extensions: { ...original.extensions, serviceName } };
  const codeDef = errorCodeDef(original);
  if (!codeDef && original.extensions?.code) return new GraphQLError(message, options);
  return (codeDef ?? ERRORS.DOWNSTREAM_SERVICE_ERROR).err(message, options);
}

/** Apollo Server's error handling of a result: the plugins see the errors, then each is formatted; `http` sets the status. */
function formatted(errors: GraphQLError[], data: Record<string, unknown> | null, context: RequestContext, opts: DirectExecutorOptions): DirectAnswer {
  opts.onErrors(errors, context);
  let status: number | undefined;
  const out = errors.map((error) => {
    const extensions: Record<string, unknown> = { ...error.extensions, code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR' };
    const http = extensions.http as { status?: unknown } | undefined;
    if (http && typeof http === 'object') {
      if (typeof http.status === 'number') status = http.status;
      delete extensions.http;
    }
    return opts.formatError({ ...error.toJSON(), extensions }, error);
  });
  return { result: { errors: out, data }, status };
}
