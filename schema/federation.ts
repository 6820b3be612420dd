import { parse, type GraphQLSchema } from 'graphql';
import { buildSchema, createResolversMap, getMetadataStorage, type NonEmptyArray, type ContainerType } from 'type-graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { authChecker, accessRegistry, remoteCallerFields, tokenNeeds, defaultTokenNeed, AccessClass, type TokenNeed } from '../lib/access.js';
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
 * The resolver objects of one app (its subgraphs' resolver instances by class, and their reference resolvers by
 * `Type.field`): what a request's operations run on. A subgraph's schema is built from classes alone and shared
 * by the apps of a process (the tests build many); each request's context carries its app's resolvers
 * (`withResolvers`), and the schema's resolvers find them there.
 */
export interface SubgraphResolvers {
  instances: Map<unknown, object>;
  references: Map<string, (...args: unknown[]) => unknown>;
}

const RESOLVERS = Symbol('subgraph resolvers');

/** Marks `context` as a request of the app whose resolvers these are (idempotent); returns it. */
export function withResolvers<T extends object>(context: T, resolvers: SubgraphResolvers): T {
  (context as { [RESOLVERS]?: SubgraphResolvers })[RESOLVERS] = resolvers;
  return context;
}

function resolversOf(context: unknown): SubgraphResolvers {
  const r = (context as { [RESOLVERS]?: SubgraphResolvers } | null | undefined)?.[RESOLVERS];
  if (!r) throw new Error('a subgraph operation ran without its app\'s resolvers (withResolvers)');
  return r;
}

/** Several subgraphs' resolvers as one app's. */
export function mergeResolvers(parts: SubgraphResolvers[]): SubgraphResolvers {
  return { instances: new Map(parts.flatMap((p) => [...p.instances])), references: new Map(parts.flatMap((p) => [...p.references])) };
}

export interface FederatedSchema {
  /** Shared by every app of the process with the same resolver classes: run it with `withResolvers`. */
  schema: GraphQLSchema;
  resolvers: SubgraphResolvers;
}

/**
 * Schemas by their resolver classes: building one (type-graphql, printing, @apollo/subgraph) costs a fifth of a
 * second, and a process that starts many apps (the tests) needs the same few. Keyed by the classes in order, which
 * are module-level, so the map holds one entry per subgraph.
 */
const built = new Map<string, { schema: Promise<GraphQLSchema> }>();
const classIds = new WeakMap<object, number>();
let nextClassId = 0;
const classKey = (classes: unknown[]) =>
  classes
    .map((c) => {
      let id = classIds.get(c as object);
      if (id === undefined) classIds.set(c as object, (id = nextClassId++));
      return id;
    })
    .join(',');

/**
 * type-graphql classes -> an Apollo Federation 2 subgraph schema. The type-graphql schema is printed with its
 * directives and rebuilt by @apollo/subgraph, keeping the resolvers (with their auth checks and middlewares), each
 * of which finds the instance it runs on in the request's context (`withResolvers`).
 */
export async function buildFederatedSchema(opts: FederatedSchemaOptions): Promise<FederatedSchema> {
  const byClass = new Map<unknown, object>(opts.instances.map((i) => [i.constructor, i]));
  const references = new Map<string, (...args: unknown[]) => unknown>();
  for (const [type, fields] of Object.entries(opts.referenceResolvers ?? {})) {
    for (const [field, fn] of Object.entries(fields as Record<string, (...args: unknown[]) => unknown>)) references.set(`${type}.${field}`, fn);
  }
  const classes = [...byClass.keys()];
  const key = `${classKey(classes)}|${[...references.keys()].join(',')}|${classKey(opts.orphanedTypes ?? [])}`;
  let entry = built.get(key);
  if (!entry) {
    entry = { schema: buildShared(classes, [...references.keys()], opts.orphanedTypes) };
    built.set(key, entry);
    entry.schema.catch(() => built.delete(key));
  }
  return { schema: await entry.schema, resolvers: { instances: byClass, references } };
}

/** The container type-graphql asks on every resolver call: one per set of instances, not one per call. */
const containers = new WeakMap<ReadonlyMap<unknown, object>, ContainerType>();
function containerOf(instances: ReadonlyMap<unknown, object>): ContainerType {
  let container = containers.get(instances);
  if (!container) {
    container = {
      get: (cls) => {
        const instance = instances.get(cls);
        if (!instance) throw new Error(`no instance registered for ${(cls as Function).name}`);
        return instance;
      },
    };
    containers.set(instances, container);
  }
  return container;
}

async function buildShared(classes: unknown[], references: string[], orphanedTypes: Function[] | undefined): Promise<GraphQLSchema> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const resolvers = classes as NonEmptyArray<Function>;
  if (!resolvers.length) throw new Error('a subgraph needs at least one resolver');
  const container = ({ context }: { context: unknown }): ContainerType => containerOf(resolversOf(context).instances);
  markPlainFieldsSimple();
  const schema = await buildSchema({
    resolvers,
    orphanedTypes,
    container,
    authChecker,
    scalarsMap,
    validate: false,
    emitSchemaFile: false,
  });
  registerAccess(schema);
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
  const resolverMap = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  for (const coordinate of references) {
    const [type, field] = coordinate.split('.');
    // `__resolveReference(reference, context, info)`: the context is the second argument.
    const dispatch = (...args: unknown[]) => resolversOf(args[1]).references.get(coordinate)!(...args);
    resolverMap[type] = { ...(resolverMap[type] as object), [field]: dispatch } as never;
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
      tokenNeeds.set(coordinate, (field.extensions?.token as TokenNeed | undefined) ?? defaultTokenNeed(type.name));
      const remote = field.extensions?.remoteCallers as boolean | undefined;
      if (remote ?? type === schema.getQueryType()) remoteCallerFields.add(coordinate);
      else remoteCallerFields.delete(coordinate);
    }
  }
}

/**
 * Marks the object types' plain fields (a property read, with no field resolver, auth check or middleware) as
 * type-graphql "simple" fields, which get no resolver: graphql's default resolver reads the same property, and
 * graphql-jit reads it inline. Otherwise type-graphql wraps every field of every object in a resolver that runs an
 * empty middleware chain, the largest cost of completing large answers (10,000 validation results are 100,000 such
 * calls). Fields with `@Authorized` (access checks), middlewares, field resolvers or a schema name of their own keep
 * type-graphql's resolver.
 */
function markPlainFieldsSimple(): void {
  const storage = getMetadataStorage();
  const objectClasses = new Set<Function>([...storage.objectTypes.map((o) => o.target), ...storage.interfaceTypes.map((i) => i.target)]);
  const guarded = new Map<Function, Set<string>>();
  for (const m of [...storage.authorizedFields, ...storage.middlewares]) {
    const names = guarded.get(m.target) ?? guarded.set(m.target, new Set()).get(m.target)!;
    names.add(m.fieldName);
  }
  const resolved = new Set(storage.fieldResolvers.map((r) => r.methodName));
  for (const field of storage.fields) {
    if (field.simple !== undefined || !objectClasses.has(field.target)) continue;
    if (field.name !== field.schemaName || resolved.has(field.name) || guarded.get(field.target)?.has(field.name)) continue;
    if (field.roles?.length || field.middlewares?.length) continue;
    field.simple = true;
  }
}
