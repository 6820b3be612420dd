import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { requireAccess, ruleOfField, type AccessRule } from '../lib/access.js';
import type { RequestContext } from '../lib/context.js';
import { AppError } from '../lib/errors.js';
import { refusal, type OperationCheck } from './operation-guards.js';

/**
 * The root fields an operation selects, as coordinates (`Mutation.createCollection`), through fragments and inline
 * fragments on the root type; the meta fields (`__typename`, `__schema`, `__type`) are left out.
 */
export function rootFieldsOf(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const type = operation.operation === 'mutation' ? 'Mutation' : operation.operation === 'subscription' ? 'Subscription' : 'Query';
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const found = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (!sel.name.value.startsWith('__')) found.add(`${type}.${sel.name.value}`);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet);
      } else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return [...found];
}

/**
 * The operation the request names, or a 400 saying why there is none: an `operationName` the document does not
 * hold, or several operations and no name. (Apollo would otherwise run into the gateway with no operation: a 500.)
 */
export const operationResolved: OperationCheck = (rc) => {
  if (rc.operation) return;
  const names = rc.document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value ?? '(anonymous)'] : []));
  const held = names.length ? `the document holds ${names.join(', ')}` : 'the document holds no operation';
  const name = rc.request.operationName;
  throw refusal(name ? `operationName: the document has no operation named "${name}" (${held})` : `operationName: required when the document holds several operations (${held})`);
};

/**
 * The access rules of an operation's root fields. Documents are kept and reused (Apollo Server's document store,
 * the direct path's prepared operations), so the rules are worked out once per operation.
 */
const rulesByOperation = new WeakMap<OperationDefinitionNode, AccessRule[]>();
function rulesOf(document: DocumentNode, operation: OperationDefinitionNode): AccessRule[] {
  let rules = rulesByOperation.get(operation);
  if (!rules) {
    rules = rootFieldsOf(document, operation).flatMap((coordinate) => ruleOfField(coordinate) ?? []);
    rulesByOperation.set(operation, rules);
  }
  return rules;
}

/**
 * Refuses an operation, before its variables are read and before anything runs, when the caller may not call one
 * of its root fields: 401 without a valid token (the token's problem from the context's `authError`), 403 when
 * the access class is too low or a token of another cluster asks for something that needs an account here. The
 * same decision as the REST routes' (rest-compat/access-gate.ts) and the resolvers' auth checker.
 */
export const operationAccess: OperationCheck<RequestContext> = async (rc) => {
  if (!rc.operation) return;
  for (const rule of rulesOf(rc.document, rc.operation)) {
    try {
      await requireAccess(rc.contextValue, rule);
    } catch (e) {
      // Errors thrown before execution are answered with the status they carry (Apollo's default is 500).
      if (e instanceof AppError) throw new AppError(e.code, e.message, { ...e.extensions, http: { status: e.status } });
      throw e;
    }
  }
};
