import { parse, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, type NonEmptyArray, type ContainerType } from 'type-graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { authChecker, accessRegistry, remoteCallerFields, AccessClass } from '../lib/access.js';
import { scalarsMap } from './scalars.js';

export const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible"])';

export interface FederatedSchemaOptions {
  /** Resolver instances, built with the subgraph's services; the schema is built from their classes. */
  instances: object[];
  orphanedTypes?: Function[];
  /** `__resolveReference` and other resolvers added after the type-graphql schema is built. */
  referenceResolvers?: GraphQLResolverMap<unknown>;
}

/**
 * type-graphql classes -> an Apollo Federation 2 subgraph schema. The type-graphql schema is printed with its
 * directives and rebuilt by @apollo/subgraph, keeping the resolvers (with their auth checks and middlewares).
 */
export async function buildFederatedSchema(opts: FederatedSchemaOptions): Promise<GraphQLSchema> {
  const byClass = new Map<unknown, object>(opts.instances.map((i) => [i.constructor, i]));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const resolvers = [...byClass.keys()] as NonEmptyArray<Function>;
  if (!resolvers.length) throw new Error('a subgraph needs at least one resolver');
  const container: ContainerType = {
    get: (cls) => {
      const instance = byClass.get(cls);
      if (!instance) throw new Error(`no instance registered for ${(cls as Function).name}`);
      return instance;
    },
  };
  const schema = await buildSchema({
    resolvers,
    orphanedTypes: opts.orphanedTypes,
    container,
    authChecker,
    scalarsMap,
    validate: false,
    emitSchemaFile: false,
  });
  registerAccess(schema);
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
  const resolverMap = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  if (opts.referenceResolvers) {
    for (const [type, fields] of Object.entries(opts.referenceResolvers)) {
      resolverMap[type] = { ...(resolverMap[type] as object), ...(fields as object) } as never;
    }
  }
  return buildSubgraphSchema({ typeDefs, resolvers: resolverMap });
}

/**
 * Records each root field's access class, and whether callers of other clusters may call it (queries unless marked
 * otherwise, mutations only when marked), and refuses a root field that declares none.
 */
function registerAccess(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type) continue;
    for (const field of Object.values(type.getFields())) {
      const declared = field.extensions?.access as AccessClass | undefined;
      if (!declared || !Object.values(AccessClass).includes(declared)) {
        throw new Error(`${type.name}.${field.name} declares no access class: add @Access(...)`);
      }
      const coordinate = `${type.name}.${field.name}`;
      accessRegistry.set(coordinate, declared);
      const remote = field.extensions?.remoteCallers as boolean | undefined;
      if (remote ?? type === schema.getQueryType()) remoteCallerFields.add(coordinate);
      else remoteCallerFields.delete(coordinate);
    }
  }
}
