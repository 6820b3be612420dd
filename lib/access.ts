import { Authorized, Extensions, type AuthCheckerFn } from 'type-graphql';
import type { RequestContext } from './context.js';
import { Forbidden, Unauthenticated } from './errors.js';
import type { TokenScope, Viewer } from './auth/viewer.js';

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

/** Who acts, as the services that decide on records see it: an account id, and whether it is a SuperUser. */
export interface Actor {
  id: string;
  superuser: boolean;
}

/** The actor a signed-in viewer is: a SuperUser by the same rule as the access class (classOf). */
export const actorOfViewer = (viewer: Viewer): Actor => ({ id: viewer.id, superuser: classOf(viewer) === AccessClass.SuperUser });

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

export type { TokenScope };
export { TOKEN_SCOPES } from './auth/viewer.js';

/**
 * What a personal API token needs to call a root field: a scope, or `login` for what only a signed-in person may do
 * (managing tokens, passwords and emails, verification, linking identities, promotion).
 */
export type TokenNeed = TokenScope | 'login';
const NEED_RANK: Record<TokenNeed, number> = { read: 0, compute: 1, write: 2, login: 3 };

/** Root field coordinates -> what an API token needs to call it, filled with the access classes. */
export const tokenNeeds = new Map<string, TokenNeed>();

/** A field's need when it declares none: queries read, mutations write. */
export const defaultTokenNeed = (type: string): TokenNeed => (type === 'Mutation' ? 'write' : 'read');

/** What a caller needs to run one root field (or one hand-written route). */
export interface AccessRule {
  required: AccessClass;
  /** Whether a person signed in at another cluster may call it. */
  remoteCallers: boolean;
  /** The field or route named in refusals. */
  name: string;
  /** Whether it keeps something for an account (a mutation) rather than reading one: said in the refusal. */
  writes: boolean;
  /** What a personal API token needs to call it. */
  token: TokenNeed;
}

/** The rule of a root field, or undefined for a coordinate that declares none (not a root field of ours). */
export function ruleOfField(coordinate: string): AccessRule | undefined {
  const required = accessRegistry.get(coordinate);
  if (!required) return undefined;
  const [type, name] = coordinate.split('.');
  return { required, remoteCallers: remoteCallerFields.has(coordinate), name, writes: type === 'Mutation', token: tokenNeeds.get(coordinate) ?? defaultTokenNeed(type) };
}

/**
 * Declares the access class of a root field. A person signed in at another cluster of the federation may call
 * queries, and only those mutations marked `remoteCallers` (they read, and keep nothing for an account here); a
 * query that reads the caller's own account here is marked `remoteCallers: false`. Enforced before anything of an
 * operation is read (gateway/operation-access.ts, and rest-compat/access-gate.ts for REST routes), and again by
 * type-graphql's auth checker before the resolver, for subgraphs served alone.
 */
export function Access(required: AccessClass, opts: { remoteCallers?: boolean; token?: TokenNeed } = {}): MethodDecorator {
  return (target, key, descriptor) => {
    Extensions({
      access: required,
      ...(opts.remoteCallers !== undefined ? { remoteCallers: opts.remoteCallers } : {}),
      ...(opts.token !== undefined ? { token: opts.token } : {}),
    })(target, key, descriptor);
    // A Public field that a token may not call still goes through the auth checker, which refuses the token.
    if (required !== AccessClass.Public || opts.token === 'login') Authorized(required)(target, key as string, descriptor as never);
  };
}

export const authChecker: AuthCheckerFn<RequestContext, AccessClass> = async ({ context, info }, roles) => {
  const coordinate = `${info.parentType.name}.${info.fieldName}`;
  const rule = ruleOfField(coordinate) ?? {
    required: roles[0] ?? AccessClass.User,
    remoteCallers: info.parentType.name === 'Query',
    name: info.fieldName,
    writes: info.parentType.name === 'Mutation',
    token: defaultTokenNeed(info.parentType.name),
  };
  await requireAccess(context, rule);
  return true;
};

/**
 * The access decision for one root field or route: `requireClass`, and then a token of another cluster is refused
 * (403) where the rule does not let such callers in.
 */
export async function requireAccess(context: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log' | 'institutionalLogin'>, rule: AccessRule): Promise<void> {
  const apiToken = context.viewer?.apiToken;
  // A Public field asks nothing of a token unless only a signed-in person may call it.
  if (apiToken && (rule.required !== AccessClass.Public || rule.token === 'login')) requireTokenScope(apiToken.scope, rule);
  if (rule.required === AccessClass.Public) return;
  const viewer = await requireClass(context, rule.required);
  if (viewer.origin && !rule.remoteCallers) {
    throw new Forbidden(
      `a token issued by the cluster ${viewer.origin.clusterName} can read here, but ${rule.name} ${rule.writes ? 'keeps something for' : 'reads'} an account: it needs an account on this cluster`,
    );
  }
}

/** Refuses (403) a personal API token whose scope does not cover the field or route. */
export function requireTokenScope(scope: TokenScope, rule: Pick<AccessRule, 'name' | 'token'>): void {
  if (rule.token === 'login') {
    throw new Forbidden(
      `${rule.name} needs a signed-in person, not an API token (tokens never manage tokens, passwords or emails, verify, link identities or promote): log in with your password, or use the web pages`,
      'TOKEN_SCOPE',
    );
  }
  if (NEED_RANK[scope] < NEED_RANK[rule.token]) {
    throw new Forbidden(`this API token has the ${scope} scope and ${rule.name} needs ${rule.token}: create a token with the ${rule.token} scope (POST /v1/user/tokens)`, 'TOKEN_SCOPE');
  }
}

/**
 * What the refusal of an Academic operation tells the caller to do on this install: the institutional login when
 * the server has one (OIDC_INSTITUTIONAL_ISSUER), otherwise what works without it (a SuperUser's verification, or
 * the operator's command line on their own machine).
 */
export function academicRefusal(institutionalLogin: boolean | undefined): string {
  return institutionalLogin
    ? 'this operation needs a verified academic account: complete institutional verification at /v1/user/authenticate/institutional/authorize'
    : 'this operation needs a verified academic account: this server has no institutional login, so ask a SuperUser of this service to verify your account ' +
        '(POST /v1/user/{user_id}/verify, or the page /admin/accounts); on your own machine, `npm run admin -- create-superuser --email <you> --password -` ' +
        'promotes your existing account to SuperUser, which covers Academic';
}

/**
 * The one access decision, for root fields (through `authChecker`) and for services that check access on
 * something else. Throws Unauthenticated without a valid token and Forbidden when the class is too low; resolves
 * to the viewer, whose claims are refreshed from the store when the account was upgraded after its token was issued,
 * and, for an Academic account's own access token, when Academic access is asked for (its verification may have been
 * taken back since the token was issued).
 */
export async function requireClass(
  context: Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log' | 'institutionalLogin'>,
  required: AccessClass,
): Promise<Viewer> {
  if (context.authError) throw new Unauthenticated(context.authError);
  if (!context.viewer) throw new Unauthenticated();
  const held = classOf(context.viewer);
  // Only an Academic account's standing can be lowered (its verification withdrawn); one PK lookup per request,
  // and only on the routes Academic opens. A failed or empty lookup decides on the token claims, as before.
  const recheck = held === AccessClass.Academic && context.viewer.accountType === 'ACADEMIC' && required === AccessClass.Academic;
  if (satisfies(held, required) && !recheck) return context.viewer;
  // On the refusal path: an account verified or promoted after its token was issued is let in at once.
  const current = context.reloadViewer
    ? await context.reloadViewer().catch((err: unknown) => {
        context.log.warn({ err }, 'could not re-read the account; deciding on the token claims');
        return null;
      })
    : null;
  if (recheck && !current) return context.viewer;
  if (current && satisfies(classOf(current), required)) {
    context.viewer = current;
    return current;
  }
  if (current) context.viewer = current;
  throw required === AccessClass.Academic ? new Forbidden(academicRefusal(context.institutionalLogin), 'ACADEMIC_REQUIRED') : new Forbidden(`this operation needs the ${required} access class`);
}
