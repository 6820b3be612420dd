import { Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { Config } from '../lib/config.js';
import { refusal, type OperationCheck } from './operation-guards.js';

export type OperationLimits = Config['limits']['operation'];

/** Arguments that bound how many items a list field returns. */
const SIZE_ARGUMENTS = ['limit', 'first'];


/** The parts of a schema type this estimate reads; duck-typed, since the gateway's graphql may be another copy. */
interface TypeLike {
  name?: string;
  ofType?: TypeLike;
  getFields?: () => Record<string, { type: TypeLike; args: readonly { name: string; defaultValue?: unknown }[] }>;
}

const namedType = (t: TypeLike | undefined): TypeLike | undefined => (t?.ofType ? namedType(t.ofType) : t);

function literal(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === Kind.INT) return Number.parseInt(node.value, 10);
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  return undefined;
}

/**
 * How many list items an operation may produce: each field with a `limit` (or `first`) argument contributes its
 * value, or the argument's default when it is left out, multiplied by the sizes of the lists above it. Aliases
 * count once each, which is what makes 200 aliases of `terms(limit: 1000)` cost 200,000.
 */
export function estimateItems(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> = {}): number {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const root = (operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType()) as TypeLike | null;
  let total = 0;
  const walk = (selections: SelectionSetNode | undefined, parent: TypeLike | undefined, multiplier: number, seen: ReadonlySet<string>): void => {
    for (const sel of selections?.selections ?? []) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const type = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) as TypeLike | undefined) : parent;
        walk(sel.selectionSet, type, multiplier, seen);
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(sel.name.value);
        // A fragment used in several places costs in each; a cycle is refused by validation anyway.
        if (!fragment || seen.has(sel.name.value)) continue;
        walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) as TypeLike | undefined, multiplier, new Set([...seen, sel.name.value]));
      } else {
        const def = parent?.getFields?.()[sel.name.value];
        let size = 1;
        for (const arg of def?.args ?? []) {
          if (!SIZE_ARGUMENTS.includes(arg.name)) continue;
          const given = sel.arguments?.find((a) => a.name.value === arg.name);
          const value = given ? literal(given.value, variables) : arg.defaultValue;
          if (typeof value === 'number' && value > 0) size = value;
        }
        if (size > 1) total += multiplier * size;
        walk(sel.selectionSet, namedType(def?.type), multiplier * size, seen);
      }
    }
  };
  walk(operation.selectionSet, root ?? undefined, 1, new Set());
  return total;
}

/**
 * The per-operation limits of /graphql and every /v1 route (REST routes run GraphQL operations too): aliases,
 * depth, tokens and static cost by graphql-armor, and the estimated number of list items by `estimateItems`.
 * Each refusal is a 400 that names the limit and the value that exceeded it. The items estimate is an operation
 * check (it reads variables, so it runs after the access check: see operationChecksPlugin).
 */
export function operationLimits(limits: OperationLimits): {
  plugins: ApolloServerPlugin<BaseContext>[];
  itemsCheck: OperationCheck;
  validationRules: NonNullable<ReturnType<ApolloArmor['protect']>['validationRules']>;
  parseOptions: { maxTokens: number };
} {
  const armor = new ApolloArmor({
    // Suggestions ("did you mean ...") follow GRAPHQL_INTROSPECTION instead: hideSuggestionsPlugin (operation-guards.ts).
    blockFieldSuggestion: { enabled: false },
    maxAliases: { n: limits.maxAliases, allowList: [] },
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true },
    // graphql's own parser counts tokens (parseOptions below), and its refusal is a parse error: a 400.
    maxTokens: { enabled: false },
    maxDirectives: { n: 50 },
    costLimit: { maxCost: limits.maxCost, objectCost: 2, scalarCost: 1, depthCostFactor: 1.5, ignoreIntrospection: true },
  });
  const protection = armor.protect();
  const itemsCheck: OperationCheck = (rc) => {
    if (!rc.operation) return;
    const items = estimateItems(rc.schema, rc.document, rc.operation, rc.request.variables ?? {});
    if (items > limits.maxItems) {
      throw refusal(
        `operation too costly: it may return about ${items} list items (limit and first arguments multiplied along the selection, aliases counted each); the limit is ${limits.maxItems} per operation: ask for fewer or smaller pages`,
      );
    }
  };
  return {
    plugins: protection.plugins as ApolloServerPlugin<BaseContext>[],
    itemsCheck,
    validationRules: protection.validationRules ?? [],
    parseOptions: { maxTokens: limits.maxTokens },
  };
}
