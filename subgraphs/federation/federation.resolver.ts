import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass, requireClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { BadInput } from '../../lib/errors.js';
import type { FederationService } from './federation.service.js';
import { BenchmarkAggregate, BenchmarkArgs, BenchmarkPage, BenchmarkRun } from './benchmark.types.js';
import { ConnectivityReport, QueryTestReport, SchemaReport } from './cluster-checks.types.js';
import { Cluster } from './cluster.types.js';
import { FederationSchema, FederationStatus, SchemaSyncResult } from './federation-status.types.js';
import { ApiSchemaText, ClusterChallengeAnswer, ClusterPing, ClusterRegistration, ClusterVerification } from './registration.types.js';

const CLUSTER_ID = () => ({ description: 'the cluster id (GET /v1/federation/clusters)' }) as const;

/** The public face of this cluster to other clusters: ping, key challenge, API schema, self-registration. */
@Resolver()
export class FederationPublicResolver {
  constructor(private readonly service: FederationService) {}

  // Nullable like every subgraph's ping: a federation subgraph that is down costs only this field.
  @Query(() => ClusterPing, { nullable: true, description: "This cluster's name, base URL, version and API schema hash, and whether it accepts registrations." })
  @Access(AccessClass.Public)
  async federationPing(@Ctx() ctx: RequestContext): Promise<ClusterPing> {
    return this.service.ping(ctx);
  }

  @Query(() => ClusterChallengeAnswer, { description: 'Signs a verifying cluster\'s random challenge with this cluster\'s token key (how a hub checks a registration).' })
  @Access(AccessClass.Public)
  async federationChallenge(
    @Arg('nonce', () => String, { description: '16-128 characters of base64url' }) nonce: string,
    @Arg('audience', () => String, { description: 'the base URL of the cluster that asks' }) audience: string,
  ): Promise<ClusterChallengeAnswer> {
    return this.service.signChallenge(nonce, audience);
  }

  @Query(() => ApiSchemaText, { description: 'The API schema this cluster serves, as SDL, with its hash.' })
  @Access(AccessClass.Public)
  async federationApiSchema(): Promise<ApiSchemaText> {
    const own = await this.service.ownSchema();
    return { sdl: own.sdl, hash: own.hash };
  }

  @Mutation(() => ClusterRegistration, { description: 'A cluster registers itself with the federation password; it stays pending until a SuperUser here verifies it.' })
  @Access(AccessClass.Public)
  async registerCluster(
    @Ctx() ctx: RequestContext,
    @Arg('password', () => String, { description: "this cluster's federation password" }) password: string,
    @Arg('name', () => String, { description: '1-64 letters, digits, ., _ or -' }) name: string,
    @Arg('base_url', () => String, { description: 'https://... where the registering cluster answers' }) base_url: string,
    @Arg('contact', () => String, { description: 'e-mail address or URL of its operators' }) contact: string,
    @Arg('public_keys', () => [String], { description: 'its PASERK k4.public token keys' }) public_keys: string[],
  ): Promise<ClusterRegistration> {
    return this.service.register({ password, name, base_url, contact, public_keys }, ctx.clientIp);
  }
}

/** Federation administration (spec 4.4): SuperUser only. */
@Resolver()
export class FederationAdminResolver {
  constructor(private readonly service: FederationService) {}

  @Query(() => [Cluster], { description: 'Every cluster this one knows, with state, keys and recent history.' })
  @Access(AccessClass.SuperUser)
  async federationClusters(@Arg('state', () => String, { nullable: true, description: 'pending | active | inactive' }) state?: string): Promise<Cluster[]> {
    if (state !== undefined && state !== null && !['pending', 'active', 'inactive'].includes(state)) throw new BadInput('state: pending, active or inactive');
    return this.service.clusters(state as never);
  }

  @Mutation(() => Cluster, { description: 'Adds a cluster directly (no federation password); it stays pending until verified.' })
  @Access(AccessClass.SuperUser)
  async addCluster(
    @Ctx() ctx: RequestContext,
    @Arg('name', () => String) name: string,
    @Arg('base_url', () => String) base_url: string,
    @Arg('contact', () => String) contact: string,
    @Arg('public_keys', () => [String]) public_keys: string[],
  ): Promise<Cluster> {
    return this.service.add(await requireClass(ctx, AccessClass.SuperUser), { name, base_url, contact, public_keys });
  }

  @Mutation(() => Cluster, { description: 'Deactivates a cluster: its tokens are refused at once and it is no longer called; its record and history stay.' })
  @Access(AccessClass.SuperUser)
  async deactivateCluster(@Ctx() ctx: RequestContext, @Arg('cluster_id', () => ID, CLUSTER_ID()) clusterId: string): Promise<Cluster> {
    return this.service.deactivate(await requireClass(ctx, AccessClass.SuperUser), clusterId);
  }

  @Mutation(() => ClusterVerification, { description: 'Checks that the cluster answers at its base URL with its name, publishes its registered keys and signs a fresh challenge with one; then it is active.' })
  @Access(AccessClass.SuperUser)
  async verifyCluster(@Ctx() ctx: RequestContext, @Arg('cluster_id', () => ID, CLUSTER_ID()) clusterId: string): Promise<ClusterVerification> {
    return this.service.verify(await requireClass(ctx, AccessClass.SuperUser), clusterId, ctx);
  }

  @Mutation(() => ConnectivityReport, { description: 'Pings the cluster three times: round trips, TLS, name, version.' })
  @Access(AccessClass.SuperUser)
  async testClusterConnectivity(@Ctx() ctx: RequestContext, @Arg('cluster_id', () => ID, CLUSTER_ID()) clusterId: string): Promise<ConnectivityReport> {
    return this.service.connectivity(clusterId, ctx.signal);
  }

  @Mutation(() => SchemaReport, { description: "Fetches the cluster's API schema and reports its breaking and other differences from ours." })
  @Access(AccessClass.SuperUser)
  async testClusterSchema(@Ctx() ctx: RequestContext, @Arg('cluster_id', () => ID, CLUSTER_ID()) clusterId: string): Promise<SchemaReport> {
    return this.service.schemaTest(clusterId, ctx.signal);
  }

  @Mutation(() => QueryTestReport, { description: 'Runs the standard read-only query against an active cluster and checks the shape of its answer.' })
  @Access(AccessClass.SuperUser)
  async testClusterQuery(@Ctx() ctx: RequestContext, @Arg('cluster_id', () => ID, CLUSTER_ID()) clusterId: string): Promise<QueryTestReport> {
    return this.service.queryTest(clusterId, ctx.signal);
  }

  @Query(() => FederationStatus, { description: 'Every cluster: state, last contact, latency, version, schema hash and health.' })
  @Access(AccessClass.SuperUser)
  async federationStatus(
    @Ctx() ctx: RequestContext,
    @Arg('refresh', () => Boolean, { nullable: true, description: 'ping every active cluster now (default false: the last contact)' }) refresh?: boolean,
  ): Promise<FederationStatus> {
    return this.service.status(ctx, Boolean(refresh));
  }

  @Query(() => FederationSchema, { description: 'Our API schema (SDL and hash) and each cluster\'s last known hash and compatibility.' })
  @Access(AccessClass.SuperUser)
  async federationSchema(): Promise<FederationSchema> {
    return this.service.schemaView();
  }

  @Mutation(() => SchemaSyncResult, { description: "Fetches every active cluster's schema, records it and its compatibility with ours." })
  @Access(AccessClass.SuperUser)
  async syncFederationSchemas(@Ctx() ctx: RequestContext): Promise<SchemaSyncResult> {
    return this.service.schemaSync(ctx.signal);
  }

  @Mutation(() => BenchmarkRun, { description: 'Runs a bounded benchmark of standard read-only operations against an active cluster and keeps the figures.' })
  @Access(AccessClass.SuperUser)
  async runFederationBenchmark(@Ctx() ctx: RequestContext, @Args(() => BenchmarkArgs) args: BenchmarkArgs): Promise<BenchmarkRun> {
    return this.service.benchmark(await requireClass(ctx, AccessClass.SuperUser), args, ctx.signal);
  }

  @Query(() => BenchmarkPage, { description: 'Benchmark results, newest first.' })
  @Access(AccessClass.SuperUser)
  async federationBenchmarks(
    @Arg('cluster_id', () => ID, { nullable: true }) clusterId?: string,
    @Arg('operation', () => String, { nullable: true, description: 'ping | search | probe' }) operation?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1..200, default 50' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: 'default 0' }) offset?: number,
  ): Promise<BenchmarkPage> {
    return this.service.benchmarks({ clusterId, operation }, limit ?? 50, offset ?? 0);
  }

  @Query(() => BenchmarkAggregate, { description: 'Benchmarks per cluster and operation over time.' })
  @Access(AccessClass.SuperUser)
  async federationBenchmarkAggregate(
    @Arg('cluster_id', () => ID, { nullable: true }) clusterId?: string,
    @Arg('operation', () => String, { nullable: true, description: 'ping | search | probe' }) operation?: string,
    @Arg('bucket', () => String, { nullable: true, description: 'hour | day (default) | week' }) bucket?: string,
  ): Promise<BenchmarkAggregate> {
    return this.service.benchmarkAggregate({ clusterId, operation }, bucket ?? 'day');
  }
}
