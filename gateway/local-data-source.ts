import { execute, parse, validate, validateSchema, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
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
 */
export class CachingLocalDataSource<TContext extends Record<string, unknown> = Record<string, unknown>> implements GraphQLDataSource<TContext> {
  private readonly documents: LruCache<string, DocumentNode>;

  /**
   * `resolvers`: the app's, which each operation's context is marked with (the schema is shared by the apps of a
   * process); none for a schema whose resolvers need nothing of the context.
   */
  constructor(
    readonly schema: GraphQLSchema,
    private readonly resolvers?: SubgraphResolvers,
    maxDocuments = SUBGRAPH_DOCUMENTS_MAX,
  ) {
    this.documents = new LruCache(maxDocuments);
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
      if (validationErrors.length > 0) return { errors: validationErrors };
      this.documents.set(source, document);
    }
    return (await execute({
      schema: this.schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: this.resolvers ? withResolvers(context, this.resolvers) : context,
    })) as SubgraphResponse;
  }
}
