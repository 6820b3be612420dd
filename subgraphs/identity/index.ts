import { randomBytes } from 'node:crypto';
import { defineSubgraph, pingOf, type HandleOf, type SubgraphDeps } from '../../lib/subgraph.js';
import type { ForeignKeys, TokenVerifier, Viewer } from '../../lib/auth/viewer.js';
import type { Config } from '../../lib/config.js';
import { isUuid } from '../../lib/ids.js';
import { signChallenge, type ChallengeClaims } from './cluster-challenge.js';
import { keyConfigProblems, loadSigningKey } from './token.keys.js';
import { bootstrapSuperUserProblems, emailKeyForLogin } from './account.rules.js';
import { AccountAdminResolver, AuthResolver, ProfileResolver } from './account.resolver.js';
import { InstitutionalResolver } from './institutional.resolver.js';
import { SocialLoginResolver } from './social-login.resolver.js';
import { ApiTokenResolver } from './api-token.resolver.js';
import { buildIdentityServices } from './services.js';

export const SUBGRAPH_NAME = 'identity' as const;

export { AccountService } from './account.service.js';
export type { Account } from './account.service.js';
export { challengeProblem, type ChallengeClaims } from './cluster-challenge.js';
export { paserkPublicId } from './token.keys.js';

/** The address of the account that owns the datasets shipped with the service; nobody can log in as it. */
export const CURATOR_EMAIL = 'shipped-data@curator.invalid';

/** The identity subgraph: accounts, sessions and tokens, institutional and social login. */
export const identity = defineSubgraph({
  name: SUBGRAPH_NAME,
  services: buildIdentityServices,
  resolvers: (s) => [
    pingOf(SUBGRAPH_NAME),
    new AuthResolver(s.accounts, s.auth, s.verificationKeys),
    new ProfileResolver(s.profiles, s.verifications),
    new AccountAdminResolver(s.verifications),
    new InstitutionalResolver(s.institutional),
    new SocialLoginResolver(s.social),
    new ApiTokenResolver(s.apiTokens),
  ],
  referenceResolvers: (s) => ({
    PublicProfile: {
      __resolveReference: async (ref: { id: string }, ctx: object) => s.profileLoader(ctx ?? {}).load(String(ref.id)),
    },
  }),
  exports: (services, deps) => ({
    /**
     * The access-token verifier the gateway and every subgraph served alone use. It needs public keys only:
     * TOKEN_PUBLIC_KEYS, the public half of TOKEN_SECRET_KEY, or the key pair under `<DATA_DIR>/keys/`. `foreign`
     * adds the keys of other clusters (the federation subgraph's).
     */
    async tokenVerifier(foreign?: ForeignKeys): Promise<TokenVerifier> {
      return (await services()).tokenVerifier(foreign);
    },
    /**
     * Account administration for tools and tests (admin CLI, first-start bootstrap, the test kit): create a
     * SuperUser, promote, mark an account as a verified Academic. Not reachable over the API by itself.
     */
    async accountAdmin() {
      return (await services()).admin;
    },
    /** Verification by hand (the admin CLI's verify-account and unverify-account; the REST routes use the same service). */
    async accountVerifications() {
      return (await services()).verifications;
    },
    /** Signs another cluster's verification challenge with this instance's token key (federation, spec 4.4). */
    async signClusterChallenge(claims: ChallengeClaims): Promise<string> {
      return signChallenge(await loadSigningKey(deps.config), deps.clock, claims);
    },
    /** Which of these ids are accounts; for subgraphs that store account ids (dataset maintainers). */
    async existingAccountIds(ids: readonly string[]): Promise<Set<string>> {
      const valid = ids.filter((id) => isUuid(id));
      return new Set((await (await services()).accountStore.findByIds(valid)).map((a) => a.id));
    },
    /**
     * An account's type and verification as stored now, or null when it no longer exists: for checks made on behalf
     * of an account outside its own requests (a download URL it was given, a job it submitted).
     */
    async accountStanding(id: string): Promise<Pick<Viewer, 'accountType' | 'verified'> | null> {
      if (!isUuid(id)) return null;
      const account = await (await services()).accountStore.findById(id);
      return account && !account.deactivatedAt ? { accountType: account.accountType, verified: account.verified } : null;
    },
    /**
     * The id of the curator account (a Service account with a random password nobody knows), created on first use.
     * It owns the shipped datasets; SuperUsers administer them.
     */
    async ensureCuratorAccount(): Promise<string> {
      const s = await services();
      const existing = await s.accountStore.findCredentials(emailKeyForLogin(CURATOR_EMAIL));
      if (existing) return existing.account.id;
      const account = await s.admin.createServiceAccount({ email: CURATOR_EMAIL, password: randomBytes(24).toString('base64url'), display_name: 'Shipped data (curated)' });
      return account.id;
    },
  }),
  /** Makes sure a signing key exists and creates the configured first-start SuperUser. */
  async onStart(s, deps) {
    await loadSigningKey(deps.config);
    const bootstrap = deps.config.auth.bootstrapSuperUser;
    if (bootstrap) {
      const { account, action } = await s.admin.createSuperUser(bootstrap);
      if (action !== 'unchanged') deps.log.info({ accountId: account.id, action }, 'bootstrap SuperUser ready');
    }
  },
  /** Start-up checks of the identity settings: the token keys, and the first-start SuperUser against the account rules. */
  async checkConfig(config: Config) {
    const bootstrap = config.auth.bootstrapSuperUser;
    return [...(await keyConfigProblems(config)), ...(bootstrap ? bootstrapSuperUserProblems(bootstrap) : [])];
  },
});

/** What other subgraphs and the host reach of identity: `identity.use(deps)`. */
export type IdentityHandle = HandleOf<typeof identity>;

/** The token verifier over `deps` (tests and tools; the host adds other clusters' keys: gateway/token-verifier.ts). */
export function createTokenVerifier(deps: SubgraphDeps, foreign?: ForeignKeys): Promise<TokenVerifier> {
  return identity.use(deps).tokenVerifier(foreign);
}
