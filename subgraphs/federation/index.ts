import type { ForeignKeys } from '../../lib/auth/viewer.js';
import type { Config } from '../../lib/config.js';
import { defineSubgraph, type HandleOf } from '../../lib/subgraph.js';
import { buildFederationServices, policyOf } from './services.js';
import { fanOut, type ClusterAnswer, type FanOutRequest } from './fan-out.js';
import { FederationAdminResolver, FederationPublicResolver } from './federation.resolver.js';
import { policyProblems } from './outbound/url-policy.js';

export const SUBGRAPH_NAME = 'federation' as const;
export type { ClusterAnswer } from './fan-out.js';

/** The federation subgraph: the clusters this one knows, their verification, checks, benchmarks and monitoring. */
export const federation = defineSubgraph({
  name: SUBGRAPH_NAME,
  services: buildFederationServices,
  resolvers: (s) => [new FederationPublicResolver(s.service), new FederationAdminResolver(s.service)],
  exports: (services, deps) => ({
    /**
     * The keys of active clusters, for the token verifier: a token signed by one of them is accepted here as its
     * person, capped at FEDERATION_REMOTE_ACCESS. Asked per request, so deactivation takes effect at once.
     */
    foreignKeys(): ForeignKeys {
      const maxClass = deps.config.federation.remoteAccess;
      return {
        async keyFor(kid: string) {
          if (maxClass === 'none' || !kid.startsWith('k4.pid.')) return null;
          const found = await (await services()).store.activeKey(kid);
          return found && { paserk: found.paserk, issuer: { clusterId: found.clusterId, clusterName: found.clusterName, maxClass } };
        },
      };
    },
    /** Sends one read-only GraphQL document to every active cluster at once (federated search); see fan-out.ts. */
    async queryActiveClusters<T>(req: FanOutRequest): Promise<ClusterAnswer<T>[]> {
      const s = await services();
      return fanOut<T>(s.store, s.remote, req);
    },
  }),
  /** Starts the scheduled pings of active clusters (FEDERATION_PING_INTERVAL_SEC). */
  async onStart(s) {
    s.monitor.start();
  },
  async onStop(s) {
    await s.monitor.close();
  },
  /** Start-up checks: the allowed hosts and networks must be what they claim to be. */
  async checkConfig(config: Config) {
    return policyProblems(policyOf(config));
  },
});

/** What other subgraphs and the host reach of federation: `federation.use(deps)`. */
export type FederationHandle = HandleOf<typeof federation>;
