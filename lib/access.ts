import { Authorized, Extensions, type AuthCheckerFn } from 'type-graphql';
import type { RequestContext } from './context.js';
import { Forbidden, Unauthenticated } from './errors.js';
import type { Viewer } from './auth/viewer.js';

/** The access classes of spec section 5.6, from least to most privileged. */
export enum AccessClass {
  Public = 'Public',
  User = 'User',
  Academic = 'Academic',
  SuperUser = 'SuperUser',
}

const RANK: Record<AccessClass, number> = { Public: 0, User: 1, Academic: 2, SuperUser: 3 };

/** The highest class a viewer holds. */
export function classOf(viewer: Viewer | null): AccessClass {
  if (!viewer) return AccessClass.Public;
  if (viewer.accountType === 'SUPERUSER') return AccessClass.SuperUser;
  if (viewer.accountType === 'SERVICE' || (viewer.accountType === 'ACADEMIC' && viewer.verified)) return AccessClass.Academic;
  return AccessClass.User;
}

export const satisfies = (held: AccessClass, required: AccessClass) => RANK[held] >= RANK[required];

/**
 * Root field coordinates (`Query.terms`) -> declared class, filled when subgraph schemas are built; the REST route
 * table, the OpenAPI document, the operation checks and the access-matrix test read it.
 */
export const accessRegistry = new Map<string, AccessClass>();

/**
 * Root field coordinates a person signed in at another cluster of the federation may call: every query but those
 * marked `remoteCallers: false`, and the mutations marked `remoteCallers: true`. Kept here rather than read from
 * the schema: the subgraph schema is rebuilt from SDL, which drops field extensions.
 */
export const remoteCallerFields = new Set<string>();

/** What a caller needs to run one root field (or one hand-written route). */
export interface AccessRule {
  required: AccessClass;
  /** Whether a person signed in at another cluster may call it. */
  remoteCallers: boolean;
  /** The field or route named in refusals. */
  name: string;
  /** Whether it keeps something for an account (a mutation) rather than reading one: said in the refusal. */
  writes: boolean;
}

/** The rule of a root field, or undefined for a coordinate that declares none (not a root field of ours). */
export function ruleOfField(coordinate: string): AccessRule | undefined {
  const required = accessRegistry.get(coordinate);
  if (!required) return undefined;
  const [type, name] = coordinate.split('.');
  return { required, remoteCallers: remoteCallerFields.has(coordinate), name, writes: type === 'Mutation' };
}

/**
 * Declares the access class of a root field. A person signed in at another cluster of the federation may call
 * queries, and only those mutations marked `remoteCallers` (they read, and keep nothing for an account here); a
 * query that reads the caller's own account here is marked `remoteCallers: false`. Enforced before anything of an
 * operation is read (gateway/operation-access.ts, and rest-compat/access-gate.ts for REST routes), and again by
 * type-graphql's auth checker before the resolver, for subgraphs served alone.
 */
export function Access(required: AccessClass, opts: { remoteCallers?: boolean } = {}): MethodDecorator {
  return (target, key, descriptor) => {
    Extensions({ access: required, ...(opts.remoteCallers !== undefined ? { remoteCallers: opts.remoteCallers } : {}) })(target, key, descriptor);
    if (required !== AccessClass.Public) Authorized(required)(target, key as string, descriptor as never);
  };
}

export const authChecker: AuthCheckerFn<RequestContext, AccessClass> = async ({ context, info }, roles) => {
  const coordinate = `${info.parentType.name}.${info.fieldName}`;
  const rule = ruleOfField(coordinate) ?? { required: roles[0] ?? AccessClass.User, remoteCallers: info.parentType.name === 'Query', name: info.fieldName, writes: info.parentType.name === 'Mutation' };
  await requireAccess(context, rule);
  return true;
};

/**
 * The access decision for one root field or route: `requireClass`, and then a token of another cluster is refused
 * (403) where the rule does not let such callers in.
 */
export async function requireAccess(context: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>, rule: AccessRule): Promise<void> {
  if (rule.required === AccessClass.Public) return;
  const viewer = await requireClass(context, rule.required);
  if (viewer.origin && !rule.remoteCallers) {
    throw new Forbidden(
      `a token issued by the cluster ${viewer.origin.clusterName} can read here, but ${rule.name} ${rule.writes ? 'keeps something for' : 'reads'} an account: it needs an account on this cluster`,
    );
  }
}

/**
 * The one access decision, for root fields (through `authChecker`) and for services that check access on
 * something else. Throws Unauthenticated without a valid token and Forbidden when the class is too low; resolves
 * to the viewer, whose claims are refreshed from the store when the account was upgraded after its token was issued.
 */
export async function requireClass(
  context: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>,
  required: AccessClass,
): Promise<Viewer> {
  if (context.authError) throw new Unauthenticated(context.authError);
  if (!context.viewer) throw new Unauthenticated();
  if (satisfies(classOf(context.viewer), required)) return context.viewer;
  // Only on the refusal path: an account verified or promoted after its token was issued is let in at once.
  const current = context.reloadViewer
    ? await context.reloadViewer().catch((err: unknown) => {
        context.log.warn({ err }, 'could not re-read the account; deciding on the token claims');
        return null;
      })
    : null;
  if (current && satisfies(classOf(current), required)) {
    context.viewer = current;
    return current;
  }
  throw new Forbidden(
    required === AccessClass.Academic
      ? 'this operation needs a verified academic account: complete institutional verification at /v1/user/authenticate/institutional/authorize'
      : `this operation needs the ${required} access class`,
  );
}
