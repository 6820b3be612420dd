import {
  Kind,
  TypeInfo,
  getNamedType,
  getOperationAST,
  isAbstractType,
  isNonNullType,
  parse,
  specifiedRules,
  validate,
  visit,
  visitWithTypeInfo,
  BREAK,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import type { GraphQLDataSource } from '@apollo/gateway';
import { QueryPlanner, type FetchNode, type PlanNode } from '@apollo/query-planner';
import { Supergraph, operationFromDocument, type Schema } from '@apollo/federation-internals';
import { LruCache } from '../../lib/lru.js';

/** One fetch of a root field set from an in-process subgraph, as the gateway's plan would send it. */
export interface DirectFetch {
  serviceName: string;
  dataSource: GraphQLDataSource;
  /** The operation text the gateway sends (its data source keeps the document it parsed from it). */
  operation: string;
  operationName: string | undefined;
  variableUsages: readonly string[];
}

/** A root field's response key, and whether a null for it makes the whole `data` null. */
export interface RootKey {
  key: string;
  nonNull: boolean;
}

/**
 * An operation the direct path may run: parsed and validated against the API schema with the gateway's rules,
 * whose query plan is one fetch, or fetches in parallel, of root fields from in-process subgraphs with nothing to
 * join, over concrete types only, so that each subgraph's answer is already the gateway's answer.
 */
export interface DirectOperation {
  text: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fetches: DirectFetch[];
  /** The root response keys in the operation's order, each with the fetch that answers it. */
  rootKeys: (RootKey & { fetch: number })[];
}

export interface DirectOperationsOptions {
  apiSchema: GraphQLSchema;
  supergraphSdl: string;
  /** The gateway's data sources of in-process subgraphs, by subgraph name (remote ones are absent). */
  localSources: ReadonlyMap<string, GraphQLDataSource>;
  /** Apollo Server's own: the limits' rules, added to graphql's specified rules. */
  validationRules: readonly ValidationRule[];
  parseOptions: { maxTokens: number };
  /** How many prepared (and refused) operations are kept. */
  max?: number;
}

/**
 * Decides, once per operation text and name, whether the direct path can run it, and keeps what it needs to.
 * Anything it does not take (a syntax or validation error, several operations and no name, introspection, an
 * abstract type, a plan that joins subgraphs or reaches a remote one) is answered by Apollo Server and the gateway,
 * which also produce every error of those cases.
 */
export class DirectOperations {
  private readonly prepared: LruCache<string, DirectOperation | null>;
  private readonly planner: QueryPlanner;
  private readonly plannerSchema: Schema;

  constructor(private readonly opts: DirectOperationsOptions) {
    const supergraph = Supergraph.build(opts.supergraphSdl);
    this.planner = new QueryPlanner(supergraph);
    this.plannerSchema = supergraph.apiSchema();
    this.prepared = new LruCache(opts.max ?? 1000);
  }

  /** The prepared operation, or null when the gateway must run it. */
  get(text: string, operationName: string | null | undefined): DirectOperation | null {
    // An operation name cannot hold a newline, so the key is unambiguous.
    const key = operationName ? `${operationName}\n${text}` : text;
    let found = this.prepared.get(key);
    if (found === undefined) {
      found = this.prepare(text, operationName ?? undefined);
      this.prepared.set(key, found);
    }
    return found;
  }

  private prepare(text: string, operationName: string | undefined): DirectOperation | null {
    let document: DocumentNode;
    try {
      document = parse(text, this.opts.parseOptions);
    } catch {
      return null;
    }
    // The limits first, alone: an operation they refuse (200 aliases) is answered by Apollo Server anyway, and
    // graphql's own rules cost it far more (comparing every pair of its fields), on the request thread.
    if (validate(this.opts.apiSchema, document, this.opts.validationRules).length > 0) return null;
    if (validate(this.opts.apiSchema, document, specifiedRules).length > 0) return null;
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation === 'subscription') return null;
    if (!onConcreteTypesOnly(this.opts.apiSchema, document)) return null;
    const rootKeys = rootKeysOf(this.opts.apiSchema, document, operation);
    if (!rootKeys) return null;

    let plan: { node?: PlanNode | { kind: 'Subscription' } };
    try {
      plan = this.planner.buildQueryPlan(operationFromDocument(this.plannerSchema, document, { operationName }));
    } catch {
      return null;
    }
    const nodes = plan.node?.kind === 'Fetch' ? [plan.node] : plan.node?.kind === 'Parallel' && operation.operation === 'query' ? plan.node.nodes : undefined;
    if (!nodes?.length || !nodes.every((n): n is FetchNode => n.kind === 'Fetch' && this.isPlainRootFetch(n))) return null;
    const fetches = nodes.map((n) => ({
      serviceName: n.serviceName,
      dataSource: this.opts.localSources.get(n.serviceName)!,
      operation: n.operation,
      operationName: n.operationName,
      variableUsages: n.variableUsages ?? [],
    }));
    // Which fetch answers each root key: read off each fetch's own root selection (once per operation).
    const fetchKeys = fetches.length === 1 ? undefined : fetches.map((f) => rootKeysOfText(f.operation));
    const keyed: DirectOperation['rootKeys'] = [];
    for (const k of rootKeys) {
      const fetch = fetchKeys ? fetchKeys.findIndex((keys) => keys.has(k.key)) : 0;
      if (fetch < 0) return null;
      keyed.push({ ...k, fetch });
    }
    return { text, document, operation, fetches, rootKeys: keyed };
  }

  private isPlainRootFetch(n: FetchNode): boolean {
    return (
      this.opts.localSources.has(n.serviceName) &&
      !n.requires &&
      !n.hasDefers &&
      !n.inputRewrites?.length &&
      !n.outputRewrites?.length &&
      !n.contextRewrites?.length
    );
  }
}

/**
 * Whether every field the operation selects has a concrete type, and it asks for no introspection: then a subgraph
 * answers exactly what the operation selects (the planner adds `__typename` only for abstract types, and the
 * gateway answers introspection itself).
 */
function onConcreteTypesOnly(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let concrete = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const type = typeInfo.getType();
        if (!type || node.name.value === '__schema' || node.name.value === '__type' || isAbstractType(getNamedType(type))) {
          concrete = false;
          return BREAK;
        }
        return undefined;
      },
      Directive(node) {
        // Deferred parts are planned as separate fetches.
        if (node.name.value === 'defer' || node.name.value === 'stream') {
          concrete = false;
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  return concrete;
}

/**
 * The root response keys in the order the operation selects them (through fragments), or undefined when the
 * root selection has a directive or `__typename` (the gateway answers those itself).
 */
function rootKeysOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): RootKey[] | undefined {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return undefined;
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const keys = new Map<string, RootKey>();
  let plain = true;
  const walk = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.directives?.length) plain = false;
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value === '__typename') plain = false;
        const key = sel.alias?.value ?? sel.name.value;
        const field = root.getFields()[sel.name.value];
        if (!field) plain = false;
        else if (!keys.has(key)) keys.set(key, { key, nonNull: isNonNullType(field.type) });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet);
      } else {
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return plain ? [...keys.values()] : undefined;
}

/** The root response keys a fetch's operation text selects (its root selection set's top level, through fragments). */
function rootKeysOfText(operationText: string): Set<string> {
  const document = parse(operationText);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const keys = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) keys.add(sel.alias?.value ?? sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else {
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  if (operation) walk(operation.selectionSet);
  return keys;
}
