import type { GraphqlRoute, Route } from '../route-table.js';

const route = (method: GraphqlRoute['method'], path: string, field: string, summary: string, extra: Partial<GraphqlRoute> = {}): GraphqlRoute => ({
  kind: 'graphql',
  method,
  path,
  field,
  tag: 'federation',
  summary,
  ...extra,
});

/** Federation (spec 4.1 ping and register, Public; 4.4 administration, SuperUser; docs/federation.md). */
export const federationRoutes: Route[] = [
  route('GET', '/v1/federation/ping', 'Query.federationPing', "This cluster's name, base URL, version, API schema hash and whether it accepts registrations"),
  route('POST', '/v1/federation/register', 'Mutation.registerCluster', 'Register a cluster {password, name, base_url, contact, public_keys}; it stays pending until verified here', {
    status: 201,
    errors: [400, 401, 403, 409],
  }),
  route('GET', '/v1/federation/clusters', 'Query.federationClusters', 'Every cluster with state, keys and recent history (?state=pending|active|inactive)', { errors: [400] }),
  route('POST', '/v1/federation/clusters', 'Mutation.addCluster', 'Add a cluster directly {name, base_url, contact, public_keys}; pending until verified', { status: 201, errors: [400, 409] }),
  route('DELETE', '/v1/federation/clusters/{cluster_id}', 'Mutation.deactivateCluster', 'Deactivate a cluster: its tokens are refused at once; the record and history stay'),
  route('POST', '/v1/federation/clusters/{cluster_id}/verify', 'Mutation.verifyCluster', 'Verify a cluster (ping, published keys, signed challenge); active when every step passes'),
  route('POST', '/v1/federation/clusters/{cluster_id}/test/connectivity', 'Mutation.testClusterConnectivity', 'Round trips, TLS, name and version of a cluster', { errors: [409] }),
  route('POST', '/v1/federation/clusters/{cluster_id}/test/schema', 'Mutation.testClusterSchema', "Compare an active cluster's API schema with ours: breaking and other changes", { errors: [409] }),
  route('POST', '/v1/federation/clusters/{cluster_id}/test/query', 'Mutation.testClusterQuery', 'Run the standard read-only query against an active cluster and check the answer', { errors: [409] }),
  route('GET', '/v1/federation/status', 'Query.federationStatus', 'Every cluster: state, last contact, latency, version, schema hash, health (?refresh=true pings them now)', { errors: [400] }),
  route('GET', '/v1/federation/schema', 'Query.federationSchema', "Our API schema SDL and hash, with each cluster's hash and compatibility"),
  route('POST', '/v1/federation/schema/sync', 'Mutation.syncFederationSchemas', "Fetch every active cluster's schema and record its compatibility with ours"),
  route('GET', '/v1/federation/benchmarks', 'Query.federationBenchmarks', 'Benchmark results, newest first (?cluster_id, operation, limit, offset)', { errors: [400] }),
  route('POST', '/v1/federation/benchmarks', 'Mutation.runFederationBenchmark', 'Benchmark an active cluster {cluster_id, operations?, requests?, concurrency?}: p50/p99, errors', {
    status: 201,
    errors: [400, 409],
  }),
  route('GET', '/v1/federation/benchmarks/aggregate', 'Query.federationBenchmarkAggregate', 'Benchmarks per cluster and operation over time (?cluster_id, operation, bucket=hour|day|week)', {
    errors: [400],
  }),
];
