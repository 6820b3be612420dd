import { Kind, visit, valueFromASTUntyped, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
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
  /** Set on list and non-null wrappers. */
  ofType?: TypeLike;
  /** Output types' fields have `args`; input object types' fields do not. */
  getFields?: () => Record<string, { type: TypeLike; args?: readonly { name: string; type: TypeLike; defaultValue?: unknown }[] }>;
}

const namedType = (t: TypeLike | undefined): TypeLike | undefined => (t?.ofType ? namedType(t.ofType) : t);
/** The type without its non-null wrapper; a wrapper left after that is a list. */
const nullableType = (t: TypeLike | undefined): TypeLike | undefined => (t?.ofType && String(t).endsWith('!') ? t.ofType : t);

/** What the lists an operation sends cost: their values, and the bytes of those values. */
export interface ListInput {
  values: number;
  bytes: number;
}

const scalarBytes = (v: unknown): number => (typeof v === 'string' ? Buffer.byteLength(v) : v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v) ?? ''));

/**
 * Adds to `into` the values of every list inside `value` (an argument of type `type`, input objects walked by
 * their fields), and the bytes of what those lists hold. Outside lists nothing is counted: single fields are
 * bounded by the services that read them.
 */
function measureListInput(value: unknown, type: TypeLike | undefined, into: ListInput, inList = false): void {
  if (value === null || value === undefined) return;
  const t = nullableType(type);
  if (t?.ofType) {
    // GraphQL coerces a single value to a list of one.
    const items = Array.isArray(value) ? value : [value];
    const itemType = t.ofType;
    // A list of scalars (term values, ids): counted in one loop, without working out the item type per item.
    if (!namedType(itemType)?.getFields && !nullableType(itemType)?.ofType) {
      for (const item of items) {
        into.values += 1;
        if (item !== null && item !== undefined) into.bytes += scalarBytes(item);
      }
      return;
    }
    for (const item of items) {
      into.values += 1;
      measureListInput(item, itemType, into, true);
    }
    return;
  }
  const fields = t?.getFields?.();
  if (fields && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) measureListInput(item, fields[name]?.type, into, inList);
    return;
  }
  if (inList) into.bytes += scalarBytes(value);
}

/** What `estimateCost` finds: list items the operation may produce, and what the lists it sends hold. */
export interface OperationEstimate {
  items: number;
  listInput: ListInput;
}

/**
 * What an operation may cost. List items it may produce: each field with a `limit` (or `first`) argument
 * contributes its value, or the argument's default when it is left out, multiplied by the sizes of the lists above
 * it; aliases count once each, which is what makes 200 aliases of `terms(limit: 1000)` cost 200,000. And the values
 * and bytes of the list arguments it sends, counted at every field that receives them: 15 aliases of
 * `termValidation(terms: $t)` send `$t` 15 times, and each is validated.
 */
export function estimateCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> = {}): OperationEstimate {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const root = (operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType()) as TypeLike | null;
  // A variable left out takes its declared default (`query ($l: Int = 1000)`).
  const values: Record<string, unknown> = {};
  for (const d of operation.variableDefinitions ?? []) if (d.defaultValue) values[d.variable.name.value] = valueFromASTUntyped(d.defaultValue);
  Object.assign(values, variables);
  let total = 0;
  const listInput: ListInput = { values: 0, bytes: 0 };
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
          const given = sel.arguments?.find((a) => a.name.value === arg.name);
          const value = given ? valueFromASTUntyped(given.value, values) : undefined;
          if (SIZE_ARGUMENTS.includes(arg.name)) {
            // Left out, or null, the argument takes the field's default.
            const n = value ?? arg.defaultValue;
            if (typeof n === 'number' && n > 0) size = n;
          } else if (value !== undefined) {
            const sent: ListInput = { values: 0, bytes: 0 };
            measureListInput(value, arg.type, sent);
            // A field inside a list runs once per item of that list.
            listInput.values += multiplier * sent.values;
            listInput.bytes += multiplier * sent.bytes;
          }
        }
        if (size > 1) total += multiplier * size;
        walk(sel.selectionSet, namedType(def?.type), multiplier * size, seen);
      }
    }
  };
  walk(operation.selectionSet, root ?? undefined, 1, new Set());
  return { items: total, listInput };
}

/**
 * Whether an operation's estimate is the same whatever its variables hold: each is a scalar or an enum (no list,
 * no input object), and none is the value of a size argument (`limit: $n`).
 */
function variablesCannotChangeEstimate(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const defs = operation.variableDefinitions ?? [];
  if (defs.length === 0) return true;
  for (const d of defs) {
    let type = d.type;
    while (type.kind === Kind.NON_NULL_TYPE) type = type.type;
    if (type.kind === Kind.LIST_TYPE) return false;
    const named = schema.getType(type.name.value) as TypeLike | undefined;
    if (!named || named.getFields) return false;
  }
  let feedsSize = false;
  // The whole document: a fragment may hold the size argument.
  visit(document, {
    Argument(node) {
      if (SIZE_ARGUMENTS.includes(node.name.value) && node.value.kind !== Kind.INT) feedsSize = true;
    },
  });
  return !feedsSize;
}

/**
 * The per-operation limits of /graphql and every /v1 route (REST routes run GraphQL operations too): aliases,
 * depth, tokens and static cost by graphql-armor; the estimated number of list items, and the values and bytes of
 * the list arguments (a smaller byte budget for callers who are not signed in), by `estimateCost`.
 * Each refusal is a 400 that names the limit and the value that exceeded it. The estimate is an operation check
 * (it reads variables, so it runs after the access check: see operationChecksPlugin).
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
  // An operation whose variables cannot change its estimate always costs the same: the estimate is kept with its
  // (reused) document. Variables change it when they are lists or input objects (list input) or feed a size argument.
  const constant = new WeakMap<OperationDefinitionNode, OperationEstimate | null>();
  const estimateOf = (rc: Parameters<OperationCheck>[0], operation: OperationDefinitionNode) => {
    let estimate = constant.get(operation);
    if (estimate === undefined) {
      const fixed = variablesCannotChangeEstimate(rc.schema, rc.document, operation);
      estimate = fixed ? estimateCost(rc.schema, rc.document, operation) : null;
      constant.set(operation, estimate);
      if (estimate) return estimate;
    }
    return estimate ?? estimateCost(rc.schema, rc.document, operation, rc.request.variables ?? {});
  };
  const itemsCheck: OperationCheck = (rc) => {
    if (!rc.operation) return;
    const { items, listInput } = estimateOf(rc, rc.operation);
    if (items > limits.maxItems) {
      throw refusal(
        `operation too costly: it may return about ${items} list items (limit and first arguments multiplied along the selection, aliases counted each); the limit is ${limits.maxItems} per operation: ask for fewer or smaller pages`,
      );
    }
    if (listInput.values > limits.maxListInputValues) {
      throw refusal(
        `operation too costly: its list arguments hold ${listInput.values} values (counted at every field that receives them, aliases each); the limit is ${limits.maxListInputValues} per operation: send fewer values or split them over several requests`,
      );
    }
    const signedIn = Boolean((rc.contextValue as { viewer?: unknown }).viewer);
    const maxBytes = signedIn ? limits.maxListInputBytes : limits.maxListInputBytesAnonymous;
    if (listInput.bytes > maxBytes) {
      throw refusal(
        `operation too costly: its list arguments hold ${listInput.bytes} bytes (counted at every field that receives them, aliases each); the limit is ${maxBytes} bytes per operation${signedIn ? '' : ' for callers who are not signed in (signed-in callers may send ' + limits.maxListInputBytes + ')'}: send fewer or shorter values`,
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
