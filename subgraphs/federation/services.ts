import { printSchema } from 'graphql';
import type { Config } from '../../lib/config.js';
import { ServiceUnavailable } from '../../lib/errors.js';
import { serviceVersion } from '../../lib/package-root.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';
import { BenchmarkService } from './benchmark.service.js';
import { ClusterChecks, type OwnSchema } from './cluster-checks.service.js';
import { schemaHash } from './schema-compat.js';
import { FederationService } from './federation.service.js';
import { ClusterMonitor } from './monitor.js';
import { OutboundClient } from './outbound/client.js';
import type { UrlPolicy } from './outbound/url-policy.js';
import { ClusterRegistry } from './registry.service.js';
import { RemoteCluster } from './remote.js';
import { BenchmarkStore } from './store/benchmark.store.js';
import { ClusterStore } from './store/cluster.store.js';

/** The outbound URL policy of FEDERATION_ALLOWED_HOSTS, FEDERATION_ALLOWED_NETWORKS and FEDERATION_ALLOW_HTTP. */
export const policyOf = (config: Config): UrlPolicy => ({
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
export function buildFederationServices(deps: SubgraphDeps) {
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

export type FederationServices = Awaited<ReturnType<typeof buildFederationServices>>;
