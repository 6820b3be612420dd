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
 * table, the OpenAPI document and the access-matrix test read it.
 */
export const accessRegistry = new Map<string, AccessClass>();

/**
 * Declares the access class of a root field. A person signed in at another cluster of the federation may call
 * queries, and only those mutations marked `remoteCallers` (they read, and keep nothing for an account here). The one place access is enforced: type-graphql runs the auth checker
 * before the resolver, whether the call came through /graphql, a REST route or a remote gateway.
 */
export function Access(required: AccessClass, opts: { remoteCallers?: boolean } = {}): MethodDecorator {
  return (target, key, descriptor) => {
    Extensions({ access: required, ...(opts.remoteCallers ? { remoteCallers: true } : {}) })(target, key, descriptor);
    if (required !== AccessClass.Public) Authorized(required)(target, key as string, descriptor as never);
  };
}

export const authChecker: AuthCheckerFn<RequestContext, AccessClass> = async ({ context, info }, roles) => {
  const viewer = await requireClass(context, roles[0] ?? AccessClass.User);
  if (viewer.origin && info.parentType.name === 'Mutation' && !info.parentType.getFields()[info.fieldName]?.extensions?.remoteCallers) {
    throw new Forbidden(
      `a token issued by the cluster ${viewer.origin.clusterName} can read here, but ${info.fieldName} keeps something for an account: it needs an account on this cluster`,
    );
  }
  return true;
};

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
