import { BREAK, Kind, visit, type ASTNode, type DocumentNode } from 'graphql';
import type { ApolloServerPlugin, BaseContext, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { BadInput } from '../lib/errors.js';

export interface OperationGuardOptions {
  /** GRAPHQL_INTROSPECTION: whether `__schema` and `__type` are answered. */
  introspection: boolean;
}

const NUL_MESSAGE = 'contains a NUL character (\\u0000), which is not accepted';
const SURROGATE_MESSAGE = 'contains a lone UTF-16 surrogate (\\ud800-\\udfff without its pair), which is not valid Unicode text';

const SURROGATE = /[\uD800-\uDFFF]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with one string of the input, as a message ending; undefined when nothing is. PostgreSQL cannot
 * store NUL in text, and a lone surrogate has no UTF-8 form: either would fail deep in a store (or in
 * encodeURIComponent) as a 500.
 */
export function textProblem(value: string): string | undefined {
  if (value.includes('\0')) return NUL_MESSAGE;
  // Most text has no surrogate at all: one scan of a character class spares the lookarounds.
  if (SURROGATE.test(value) && LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  return undefined;
}

/**
 * Where a string literal of the operation holds text `textProblem` refuses, as the dotted argument and input field
 * names leading to it (`input.display_name`) and the problem; undefined when none does.
 */
export function textProblemInDocument(document: DocumentNode): { where: string; problem: string } | undefined {
  let found: { where: string; problem: string } | undefined;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      const problem = textProblem(node.value);
      if (!problem) return undefined;
      const names: string[] = [];
      // `ancestors` stops short of the parent (the argument, for a top-level literal).
      for (const a of [...ancestors, parent] as ReadonlyArray<ASTNode | ReadonlyArray<ASTNode> | undefined>) {
        if (!a) continue;
        if ('kind' in a && (a.kind === Kind.ARGUMENT || a.kind === Kind.OBJECT_FIELD)) names.push(a.name.value);
        if ('kind' in a && a.kind === Kind.VARIABLE_DEFINITION) names.push(a.variable.name.value);
      }
      found = { where: names.join('.') || 'a string', problem };
      return BREAK;
    },
  });
  return found;
}

/** A value inside the variables, with the way to it. */
type VariableEntry = { value: unknown; parent: VariableEntry | undefined; key: string | number };

function whereOf(e: VariableEntry): string {
  const parts: string[] = [];
  for (let cur: VariableEntry | undefined = e; cur; cur = cur.parent) parts.push(typeof cur.key === 'number' ? `[${cur.key}]` : cur.parent ? `.${cur.key}` : cur.key);
  return parts.reverse().join('');
}

/** Where a variable's value (strings and keys, at any depth) holds text `textProblem` refuses: `terms[2]`, `input.bio`. */
export function textProblemInVariables(variables: Record<string, unknown> | undefined): { where: string; problem: string } | undefined {
  // An explicit stack: variables arrive from anyone, and their nesting must not be able to overflow ours. Each
  // entry keeps its parent's entry and its own key, and a name is spelled out only for the value that is refused:
  // a list of 10,000 values costs no 10,000 strings.
  const stack: VariableEntry[] = [];
  for (const name in variables) if (Object.hasOwn(variables, name)) stack.push({ value: variables[name], parent: undefined, key: name });
  while (stack.length) {
    const entry = stack.pop()!;
    const value = entry.value;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { where: whereOf(entry), problem };
    } else if (Array.isArray(value)) {
      // Pushed last to first, so that the first bad item is the one named.
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: entry, key: i });
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value).reverse()) {
        const problem = textProblem(key);
        if (problem) return { where: whereOf(entry), problem };
        stack.push({ value: item, parent: entry, key });
      }
    }
  }
  return undefined;
}

function asksForSchema(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/**
 * The error a plugin throws to refuse an operation before it runs. Apollo answers errors thrown before execution
 * with 500 unless they carry their status.
 */
export const refusal = (message: string) => new BadInput(message, { http: { status: 400 } });

/**
 * One check of a resolved operation, before its variables are coerced and before it runs; it refuses by throwing
 * (an error carrying its HTTP status). `operation` is missing when the request names none the document holds.
 */
export type OperationCheck<C extends BaseContext = BaseContext> = (
  rc: Omit<GraphQLRequestContextDidResolveOperation<C>, 'operation'> & { operation?: GraphQLRequestContextDidResolveOperation<C>['operation'] },
) => void | Promise<void>;

/**
 * Runs the operation checks one after the other, in the order given, so the first refusal is always the same one
 * (Apollo runs plugins' hooks concurrently: an access refusal that waits on the store would lose to a later
 * check's 400). Runs for /graphql and for every REST route, which execute through the same server.
 */
export function operationChecksPlugin<C extends BaseContext>(checks: OperationCheck<C>[]): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          for (const check of checks) await check(rc);
        },
      };
    },
  };
}

/**
 * Refuses operations that would fail deep inside a store, with a 400 naming the argument: NUL characters or lone
 * surrogates in string literals or variables. Also refuses introspection when GRAPHQL_INTROSPECTION is off.
 */
export function operationGuards(opts: OperationGuardOptions): OperationCheck {
  return ({ document, request }) => {
    if (!opts.introspection && asksForSchema(document)) {
      throw refusal('GraphQL introspection (__schema, __type) is turned off on this server (GRAPHQL_INTROSPECTION=false)');
    }
    // A NUL or a lone surrogate can only be written as an escape in GraphQL text (a raw NUL is a syntax error,
    // and text that arrived as UTF-8 holds no lone surrogate), hence the cheap test.
    const found =
      (typeof request.query !== 'string' || request.query.includes('\\u') ? textProblemInDocument(document) : undefined) ?? textProblemInVariables(request.variables);
    if (found) throw refusal(`${found.where}: ${found.problem}`);
  };
}

/**
 * graphql-js suggests names close to an unknown field, argument, type or enum value ("Did you mean ..."): with
 * introspection off, that would let anyone read the schema by guessing. Such errors then keep their first sentence
 * only.
 */
export function hideSuggestionsPlugin(): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors }) {
          hideSuggestions(errors);
        },
      };
    },
  };
}

/** Cuts the "Did you mean ...?" of every suggestion from each message (hideSuggestionsPlugin). */
export function hideSuggestions(errors: readonly { message: string }[]): void {
  for (const error of errors) {
    if (error.message.includes('Did you mean')) (error as { message: string }).message = error.message.replace(/\s*Did you mean [^?]*\?/g, '');
  }
}
