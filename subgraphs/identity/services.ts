import { PublicProtocol } from 'paseto';
import { ImportPublicKeyFactory, type PublicKey } from 'paseto/v4/public';
import type { ForeignKeys, TokenVerifier } from '../../lib/auth/viewer.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { isUuid } from '../../lib/ids.js';
import { AccountStore } from './store/account.store.js';
import { SessionStore } from './store/session.store.js';
import { InstitutionalStore } from './store/institutional.store.js';
import { LoginCodeStore } from './store/social-login.store.js';
import { AccountService } from './account.service.js';
import { AuthService } from './auth.service.js';
import { ProfileService } from './profile.service.js';
import { PasswordThrottle } from './password-throttle.service.js';
import { LoginFlowService } from './login-flow.service.js';
import { InstitutionalService } from './institutional.service.js';
import { SocialLoginService } from './social-login.service.js';
import { loadSigningKey, loadVerificationKeys, type SigningKey, type VerificationKeys } from './token.keys.js';
import { PasetoTokenVerifier, TokenChecker, TokenSigner } from './token.service.js';
import { toPublicProfile } from './account.resolver.js';
import { ApiTokenStore } from './store/api-token.store.js';
import { ApiTokenService } from './api-token.service.js';
import { AccountVerificationService } from './account-verification.service.js';
import { perRequestLoader } from '../../lib/request-loader.js';

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load().catch((e) => {
    p = undefined;
    throw e;
  }));
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

/** Every service of the identity subgraph over these stores: the one place they are wired. */
export function buildIdentityServices(deps: SubgraphDeps) {
  const db = deps.stores.relational.db;
  const accountStore = new AccountStore(db);
  // Keys load on first use: a gateway that composes a remote identity subgraph never needs them.
  const signingKey = once<SigningKey>(() => loadSigningKey(deps.config));
  const verificationKeys = once<VerificationKeys>(() => loadVerificationKeys(deps.config));
  const signer = new TokenSigner(signingKey, deps.clock);
  const checker = new TokenChecker(verificationKeys, deps.clock);
  const throttle = new PasswordThrottle(deps.stores.limits, deps.config.limits, deps.clock, deps.log.child({ component: 'PasswordThrottle' }));
  const apiTokens = new ApiTokenService(new ApiTokenStore(db), deps.clock, deps.log.child({ component: 'ApiTokenService' }));
  const sessions = new SessionStore(db);
  const accounts = new AccountService(accountStore, deps.config, deps.clock, throttle);
  const auth = new AuthService(accountStore, sessions, signer, checker, deps.clock, deps.log.child({ component: 'AuthService' }), throttle, apiTokens);
  const links = new InstitutionalStore(db);
  const institutionalLog = deps.log.child({ component: 'InstitutionalService' });
  const socialLog = deps.log.child({ component: 'SocialLoginService' });

  const profileLoader = perRequestLoader(async (ids: readonly string[]) => {
    const found = new Map((await accountStore.findByIds(ids.filter((id) => isUuid(id)))).map((a) => [a.id, toPublicProfile(a)]));
    return ids.map((id) => found.get(id) ?? null);
  });

  return {
    accountStore,
    verificationKeys,
    /** The access-token verifier over the keys configured now; `foreign` adds other clusters' keys. */
    tokenVerifier: async (foreign?: ForeignKeys): Promise<TokenVerifier> =>
      new PasetoTokenVerifier(await loadVerificationKeys(deps.config), deps.clock, accountStore, apiTokens, foreign && foreignKeyLookup(foreign)),
    accounts,
    /** Account administration for tools (admin CLI, first-start bootstrap, the test kit): not behind the login throttle. */
    admin: new AccountService(accountStore, deps.config, deps.clock, undefined, { sessions, apiTokens }),
    apiTokens,
    auth,
    /** Verification by a SuperUser or the operator, and the SuperUsers' list of accounts. */
    verifications: new AccountVerificationService(db, deps.clock, deps.log.child({ component: 'AccountVerificationService' })),
    profiles: new ProfileService(accountStore, deps.clock, throttle, auth),
    profileLoader,
    institutional: new InstitutionalService(new LoginFlowService(deps.config.login, links, deps.clock, institutionalLog), links, db, deps.config, deps.clock, institutionalLog),
    social: new SocialLoginService(new LoginFlowService(deps.config.login, links, deps.clock, socialLog), links, new LoginCodeStore(db), auth, db, deps.config, deps.clock, socialLog),
  };
}

export type IdentityServices = Awaited<ReturnType<typeof buildIdentityServices>>;
