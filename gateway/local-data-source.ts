import { GraphQLError, execute, parse, validate, validateSchema, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LruCache } from '../lib/lru.js';
import { withResolvers, type SubgraphResolvers } from '../schema/federation.js';

type SubgraphResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

/** Operations the gateway sends an in-process subgraph: one per query-plan fetch, so a few hundred cover them. */
export const SUBGRAPH_DOCUMENTS_MAX = 500;

/**
 * Runs the gateway's fetches against an in-process subgraph schema, as @apollo/gateway's LocalGraphQLDataSource
 * does, but parses and validates each operation text once: the gateway sends the same few operation texts over and
 * over (one per fetch of each cached query plan), and re-parsing and re-validating them cost more than executing
 * them. Only documents that validated are kept; a failing one is re-checked, and answered the same way, each time.
 *
 * With `compiled`, each operation is also compiled once by graphql-jit into a function that executes that operation
 * alone, which is what the same few operations want: graphql-js's interpreter walks the document and looks up each
 * field's definition and arguments for every object it completes (a 10,000-term validation completes 100,000
 * fields), and the objects it builds are slow to serialise. Resolvers, their errors and null propagation are the
 * same; the direct-execution equivalence test compares the two executors' answers on every REST route.
 */
export class CachingLocalDataSource<TContext extends Record<string, unknown> = Record<string, unknown>> implements GraphQLDataSource<TContext> {
  private readonly documents: LruCache<string, DocumentNode>;
  /**
   * Compiled operations, by the cached document they were compiled from and then by operation name; only with
   * `compiled`. Keyed by the document rather than its text, so that a lookup hashes nothing per request.
   */
  private readonly compiled: LruCache<DocumentNode, Map<string, CompiledQuery>> | undefined;

  /**
   * `resolvers`: the app's, which each operation's context is marked with (the schema is shared by the apps of a
   * process); none for a schema whose resolvers need nothing of the context.
   */
  constructor(
    readonly schema: GraphQLSchema,
    private readonly resolvers?: SubgraphResolvers,
    opts: { compiled?: boolean; maxDocuments?: number } = {},
  ) {
    this.documents = new LruCache(opts.maxDocuments ?? SUBGRAPH_DOCUMENTS_MAX);
    if (opts.compiled) this.compiled = new LruCache(opts.maxDocuments ?? SUBGRAPH_DOCUMENTS_MAX);
  }

  async process({ request, context }: GraphQLDataSourceProcessOptions<TContext>): Promise<SubgraphResponse> {
    const source = request.query ?? '';
    let document = this.documents.get(source);
    if (!document) {
      // The same checks, in the same order and with the same answers, as graphql() makes.
      const schemaErrors = validateSchema(this.schema);
      if (schemaErrors.length > 0) return { errors: schemaErrors };
      try {
        document = parse(source);
      } catch (syntaxError) {
        return { errors: [syntaxError as GraphQLError] };
      }
      const validationErrors = validate(this.schema, document);
      if (validationErrors.length > 0) return { errors: coded(validationErrors, 'GRAPHQL_VALIDATION_FAILED') };
      this.documents.set(source, document);
    }
    const contextValue = this.resolvers ? withResolvers(context, this.resolvers) : context;
    const compiled = this.compiled && this.compiledFor(this.compiled, document, request.operationName ?? '');
    if (compiled) {
      const result = await compiled.query(undefined, contextValue, request.variables ?? {});
      // Without data, the variables were refused before anything ran: graphql-js words that refusal its own way,
      // and clients (and the gateway) see graphql-js's words everywhere else.
      if ('data' in result) return result as SubgraphResponse;
    }
    const result = await execute({ schema: this.schema, document, variableValues: request.variables, operationName: request.operationName, contextValue });
    // No data: the variables were refused, which is the request's fault, as Apollo Server answers it.
    if (!('data' in result) && result.errors) return { errors: coded(result.errors, 'BAD_USER_INPUT') };
    return result as SubgraphResponse;
  }

  /** The operation compiled, once; undefined when it cannot be (no such operation), which graphql-js then answers. */
  private compiledFor(cache: LruCache<DocumentNode, Map<string, CompiledQuery>>, document: DocumentNode, operationName: string): CompiledQuery | undefined {
    let byName = cache.get(document);
    if (!byName) cache.set(document, (byName = new Map()));
    let compiled = byName.get(operationName);
    if (!compiled) {
      const made = compileQuery(this.schema, document, operationName || undefined);
      if (!isCompiledQuery(made)) return undefined;
      byName.set(operationName, (compiled = made));
    }
    return compiled;
  }
}

/**
 * Refusals of an operation the subgraph checks itself (validation, variables) with the code Apollo Server gives
 * them: without one, the gateway would take them for the subgraph's faults and answer INTERNAL_SERVER_ERROR.
 */
function coded(errors: readonly GraphQLError[], code: string): GraphQLError[] {
  return errors.map((e) =>
    e.extensions?.code
      ? e
      : new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, originalError: e.originalError, extensions: { ...e.extensions, code } }),
  );
}
