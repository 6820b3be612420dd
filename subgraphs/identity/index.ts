import DataLoader from 'dataloader';
import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../schema/federation.js';
import { pingResolver } from '../../schema/health.types.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import type { ForeignKeys, TokenVerifier, Viewer } from '../../lib/auth/viewer.js';
import { PublicProtocol } from 'paseto';
import { ImportPublicKeyFactory, type PublicKey } from 'paseto/v4/public';
import { signChallenge, type ChallengeClaims } from './cluster-challenge.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { Config } from '../../lib/config.js';
import type { Db } from '../../lib/db/relational.js';
import { isUuid } from '../../lib/ids.js';
import { AccountStore } from './store/account.store.js';
import { SessionStore } from './store/session.store.js';
import { AccountService } from './account.service.js';
import { AuthService } from './auth.service.js';
import { ProfileService } from './profile.service.js';
import { PasswordThrottle } from './password-throttle.service.js';
import { keyConfigProblems, loadSigningKey, loadVerificationKeys, type SigningKey, type VerificationKeys } from './token.keys.js';
import { bootstrapSuperUserProblems, emailKeyForLogin } from './account.rules.js';
import { randomBytes } from 'node:crypto';
import { PasetoTokenVerifier, TokenChecker, TokenSigner } from './token.service.js';
import { AuthResolver, ProfileResolver, toPublicProfile } from './account.resolver.js';
import { InstitutionalResolver } from './institutional.resolver.js';
import { createInstitutionalService } from './institutional.service.js';
import { SocialLoginResolver } from './social-login.resolver.js';
import { createSocialLoginService } from './social-login.service.js';

export const SUBGRAPH_NAME = 'identity';

export { AccountService } from './account.service.js';
export type { Account } from './account.service.js';

/**
 * Account administration for tools and tests (admin CLI, first-start bootstrap, the test kit): create a
 * SuperUser, promote, mark an account as a verified Academic. Not reachable over the API by itself.
 */
export function createAccountAdmin(deps: { config: Config; db: Db; clock?: Clock }): AccountService {
  return new AccountService(new AccountStore(deps.db), deps.config, deps.clock ?? systemClock);
}

/**
 * The access-token verifier the gateway and every subgraph served alone use. It needs public keys only:
 * TOKEN_PUBLIC_KEYS, the public half of TOKEN_SECRET_KEY, or the key pair under `<DATA_DIR>/keys/`.
 */
export async function createTokenVerifier(deps: SubgraphDeps, foreign?: ForeignKeys): Promise<TokenVerifier> {
  return new PasetoTokenVerifier(await loadVerificationKeys(deps.config), deps.clock, new AccountStore(deps.stores.relational.db), foreign && foreignKeyLookup(foreign));
}

const importer = new PublicProtocol(ImportPublicKeyFactory);

/** Other clusters' keys as key objects; an imported key is kept (by its PASERK) since keys do not change. */
function foreignKeyLookup(foreign: ForeignKeys) {
  const imported = new Map<string, Promise<PublicKey>>();
  return async (kid: string) => {
    const found = await foreign.keyFor(kid);
    if (!found) return null;
    let key = imported.get(found.paserk);
    if (!key) {
      key = importer.ImportPublicKey(found.paserk as `k4.public.${string}`);
      imported.set(found.paserk, key);
    }
    return { key: await key, issuer: found.issuer };
  };
}

export { challengeProblem, type ChallengeClaims } from './cluster-challenge.js';
export { paserkPublicId } from './token.keys.js';

/** Signs another cluster's verification challenge with this instance's token key (federation, spec 4.4). */
export async function signClusterChallenge(deps: Pick<SubgraphDeps, 'config' | 'clock'>, claims: ChallengeClaims): Promise<string> {
  return signChallenge(await loadSigningKey(deps.config), deps.clock, claims);
}

/** Which of these ids are accounts; for subgraphs that store account ids (dataset maintainers). */
export async function existingAccountIds(deps: Pick<SubgraphDeps, 'stores'>, ids: readonly string[]): Promise<Set<string>> {
  const valid = ids.filter((id) => isUuid(id));
  return new Set((await new AccountStore(deps.stores.relational.db).findByIds(valid)).map((a) => a.id));
}

/**
 * An account's type and verification as stored now, or null when it no longer exists: for checks made on behalf of
 * an account outside its own requests (a download URL it was given).
 */
export async function accountStanding(deps: Pick<SubgraphDeps, 'stores'>, id: string): Promise<Pick<Viewer, 'accountType' | 'verified'> | null> {
  if (!isUuid(id)) return null;
  const account = await new AccountStore(deps.stores.relational.db).findById(id);
  return account ? { accountType: account.accountType, verified: account.verified } : null;
}

/** The address of the account that owns the datasets shipped with the service; nobody can log in as it. */
export const CURATOR_EMAIL = 'shipped-data@curator.invalid';

/**
 * The id of the curator account (a Service account with a random password nobody knows), created on first use.
 * It owns the shipped datasets; SuperUsers administer them.
 */
export async function ensureCuratorAccount(deps: Pick<SubgraphDeps, 'stores' | 'config' | 'clock'>): Promise<string> {
  const store = new AccountStore(deps.stores.relational.db);
  const existing = await store.findCredentials(emailKeyForLogin(CURATOR_EMAIL));
  if (existing) return existing.account.id;
  const admin = new AccountService(store, deps.config, deps.clock);
  const account = await admin.createServiceAccount({ email: CURATOR_EMAIL, password: randomBytes(24).toString('base64url'), display_name: 'Shipped data (curated)' });
  return account.id;
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load().catch((e) => {
    p = undefined;
    throw e;
  }));
}

/** Builds the identity subgraph's federated schema. */
export async function buildSchema(deps: SubgraphDeps): Promise<GraphQLSchema> {
  const db = deps.stores.relational.db;
  const accountStore = new AccountStore(db);
  // Keys load on first use: a gateway that composes a remote identity subgraph never needs them.
  const signingKey = once<SigningKey>(() => loadSigningKey(deps.config));
  const verificationKeys = once<VerificationKeys>(() => loadVerificationKeys(deps.config));
  const signer = new TokenSigner(signingKey, deps.clock);
  const checker = new TokenChecker(verificationKeys, deps.clock);
  const throttle = new PasswordThrottle(deps.stores.limits, deps.config.limits, deps.clock, deps.log.child({ component: 'PasswordThrottle' }));
  const accounts = new AccountService(accountStore, deps.config, deps.clock, throttle);
  const auth = new AuthService(accountStore, new SessionStore(db), signer, checker, deps.clock, deps.log.child({ component: 'AuthService' }), throttle);
  const profiles = new ProfileService(accountStore, deps.clock, throttle, auth);

  // One loader per request context: a page of datasets naming 50 owners costs one query, not 50.
  const loaders = new WeakMap<object, DataLoader<string, ReturnType<typeof toPublicProfile> | null>>();
  const profileLoader = (ctx: object) => {
    let l = loaders.get(ctx);
    if (!l) {
      l = new DataLoader(async (ids: readonly string[]) => {
        const found = new Map((await accountStore.findByIds(ids.filter((id) => isUuid(id)))).map((a) => [a.id, toPublicProfile(a)]));
        return ids.map((id) => found.get(id) ?? null);
      });
      loaders.set(ctx, l);
    }
    return l;
  };
  const Ping = pingResolver(SUBGRAPH_NAME);
  return buildFederatedSchema({
    resolvers: [Ping, AuthResolver, ProfileResolver, InstitutionalResolver, SocialLoginResolver],
    instances: [
      new (Ping as new () => object)(),
      new AuthResolver(accounts, auth, verificationKeys),
      new ProfileResolver(profiles),
      new InstitutionalResolver(createInstitutionalService(deps)),
      new SocialLoginResolver(createSocialLoginService(deps, auth)),
    ],
    referenceResolvers: {
      PublicProfile: {
        __resolveReference: async (ref: { id: string }, ctx: object) => profileLoader(ctx ?? {}).load(String(ref.id)),
      },
    },
  });
}

/** Makes sure a signing key exists and creates the configured first-start SuperUser. */
export async function onStart(deps: SubgraphDeps): Promise<void> {
  await loadSigningKey(deps.config);
  const bootstrap = deps.config.auth.bootstrapSuperUser;
  if (bootstrap) {
    const { account, action } = await createAccountAdmin({ ...deps, db: deps.stores.relational.db }).createSuperUser(bootstrap);
    if (action !== 'unchanged') deps.log.info({ accountId: account.id, action }, 'bootstrap SuperUser ready');
  }
}

/** Start-up checks of the identity settings: the token keys, and the first-start SuperUser against the account rules. */
export async function checkConfig(config: Config): Promise<string[]> {
  const bootstrap = config.auth.bootstrapSuperUser;
  return [...(await keyConfigProblems(config)), ...(bootstrap ? bootstrapSuperUserProblems(bootstrap) : [])];
}
