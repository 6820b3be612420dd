import { printSchema } from 'graphql';
import type { ForeignKeys } from '../../lib/auth/viewer.js';
import type { Config } from '../../lib/config.js';
import { serviceVersion } from '../../lib/package-root.js';
import { defineSubgraph, type HandleOf, type SubgraphDeps } from '../../lib/subgraph.js';
import { BenchmarkService } from './benchmark.service.js';
import { ClusterChecks, type OwnSchema } from './cluster-checks.service.js';
import { schemaHash } from './schema-compat.js';
import { ServiceUnavailable } from '../../lib/errors.js';
import { fanOut, type ClusterAnswer, type FanOutRequest } from './fan-out.js';
import { FederationAdminResolver, FederationPublicResolver } from './federation.resolver.js';
import { FederationService } from './federation.service.js';
import { ClusterMonitor } from './monitor.js';
import { OutboundClient } from './outbound/client.js';
import { policyProblems, type UrlPolicy } from './outbound/url-policy.js';
import { ClusterRegistry } from './registry.service.js';
import { RemoteCluster } from './remote.js';
import { BenchmarkStore } from './store/benchmark.store.js';
import { ClusterStore } from './store/cluster.store.js';

export const SUBGRAPH_NAME = 'federation' as const;
export type { ClusterAnswer } from './fan-out.js';

const policyOf = (config: Config): UrlPolicy => ({
  allowedHosts: config.federation.allowedHosts,
  allowedNetworks: config.federation.allowedNetworks,
  allowHttp: config.federation.allowHttp,
});

function remoteFor(config: Config): RemoteCluster {
  const f = config.federation;
  return new RemoteCluster(
    new OutboundClient({ policy: policyOf(config), timeoutMs: f.timeoutMs, maxResponseBytes: f.maxResponseBytes, retries: f.retries, userAgent: `neurodata-federation/${serviceVersion()} (${f.clusterName})` }),
  );
}

/** Every service of the federation subgraph over these stores: the one place they are wired. */
function federationServices(deps: SubgraphDeps) {
  const store = new ClusterStore(deps.stores.relational.db);
  const benchmarks = new BenchmarkStore(deps.stores.relational.db);
  const remote = remoteFor(deps.config);
  const log = deps.log.child({ component: 'federation' });
  const ownSchema = apiSchemaOf(deps);
  const checks = new ClusterChecks(store, remote, ownSchema, deps.clock, log);
  const registry = new ClusterRegistry(store, remote, deps.config.federation, policyOf(deps.config), deps.stores.limits, deps.clock, log);
  const bench = new BenchmarkService(benchmarks, remote, serviceVersion(), deps.clock, log);
  const service = new FederationService(deps, ownSchema, store, registry, checks, bench, benchmarks, serviceVersion());
  const monitor = new ClusterMonitor(store, checks, { intervalSec: deps.config.federation.pingIntervalSec, timeoutMs: deps.config.federation.timeoutMs }, deps.clock, log);
  return { store, remote, service, monitor };
}

/** Our API schema with its SDL and hash, computed once: it does not change while the process runs. */
function apiSchemaOf(deps: SubgraphDeps): () => Promise<OwnSchema> {
  let own: Promise<OwnSchema> | undefined;
  return () => {
    const load = deps.apiSchema;
    if (!load) return Promise.reject(new ServiceUnavailable('the API schema of this cluster is not known to the federation service'));
    own ??= load().then((schema) => {
      const sdl = printSchema(schema);
      return { schema, sdl, hash: schemaHash(sdl) };
    });
    return own;
  };
}

/** The federation subgraph: the clusters this one knows, their verification, checks, benchmarks and monitoring. */
export const federation = defineSubgraph({
  name: SUBGRAPH_NAME,
  services: federationServices,
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

export type FederationHandle = HandleOf<typeof federation>;
