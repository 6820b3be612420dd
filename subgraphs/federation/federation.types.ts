import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../schema/page.types.js';

@ObjectType({ description: 'This cluster as other clusters see it (spec 4.1 federation health).' })
export class ClusterPing {
  @Field(() => String, { description: 'always "ok" when the cluster answers' })
  status!: string;

  @Field(() => String, { description: 'the cluster name (CLUSTER_NAME)' })
  name!: string;

  @Field(() => String, { description: 'the base URL this cluster is reached at (PUBLIC_URL, or the one this request used)' })
  base_url!: string;

  @Field(() => String, { description: 'service version' })
  version!: string;

  @Field(() => String, { description: 'sha256 of the API schema SDL this cluster serves' })
  schema_hash!: string;

  @Field(() => Date)
  time!: Date;

  @Field(() => Boolean, { description: 'whether POST /v1/federation/register is open (a federation password is set)' })
  accepts_registrations!: boolean;
}

@ObjectType({ description: "A verification challenge signed with this cluster's token key." })
export class ClusterChallengeAnswer {
  @Field(() => String, { description: 'PASETO v4.public over the nonce and audience, with an implicit assertion no access token carries' })
  token!: string;

  @Field(() => String)
  cluster!: string;
}

@ObjectType({ description: 'The API schema this cluster serves.' })
export class ApiSchemaText {
  @Field(() => String, { description: 'SDL of the public API schema' })
  sdl!: string;

  @Field(() => String, { description: 'sha256:<hex> of the SDL' })
  hash!: string;
}

@ObjectType()
export class ClusterKey {
  @Field(() => String, { description: 'PASERK k4.pid: what token footers name' })
  kid!: string;

  @Field(() => String, { description: 'PASERK k4.public' })
  public_key!: string;

  @Field(() => Date)
  added_at!: Date;
}

@ObjectType({ description: 'Something that happened to a cluster.' })
export class ClusterEvent {
  @Field(() => Date)
  at!: Date;

  @Field(() => String, { description: 'registered | added | verified | verification_failed | deactivated | up | down' })
  kind!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType({ description: 'A cluster of the federation as this one knows it.' })
export class Cluster {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  base_url!: string;

  @Field(() => String)
  contact!: string;

  @Field(() => String, { description: 'pending (registered, not verified) | active | inactive (deactivated)' })
  state!: string;

  @Field(() => String, { description: 'register (it registered itself) | admin (a SuperUser added it)' })
  origin!: string;

  @Field(() => String, { description: 'up | down | unknown: the outcome of the last contact' })
  health!: string;

  @Field(() => Date, { nullable: true })
  last_contact_at!: Date | null;

  @Field(() => Float, { nullable: true, description: 'round trip of the last successful contact, ms' })
  last_latency_ms!: number | null;

  @Field(() => String, { nullable: true, description: 'why the last contact failed' })
  last_error!: string | null;

  @Field(() => String, { nullable: true, description: 'service version it last reported' })
  version!: string | null;

  @Field(() => String, { nullable: true, description: 'API schema hash it last reported' })
  schema_hash!: string | null;

  @Field(() => Boolean, { nullable: true, description: 'from the last schema check; null before one' })
  compatible!: boolean | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date, { nullable: true })
  verified_at!: Date | null;

  @Field(() => Date, { nullable: true })
  deactivated_at!: Date | null;

  @Field(() => [ClusterKey], { description: 'the keys its access tokens are verified with while it is active' })
  keys!: ClusterKey[];

  @Field(() => [ClusterEvent], { description: 'its latest 20 events, newest first' })
  history!: ClusterEvent[];
}

@ObjectType({ description: 'A registration received: the cluster is pending until a SuperUser here verifies it.' })
export class ClusterRegistration {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  base_url!: string;

  @Field(() => String)
  state!: string;

  @Field(() => String)
  message!: string;
}

@InputType({ description: 'A cluster: its name, base URL, contact and the public keys of its access tokens.' })
export class ClusterInputFields {
  @Field(() => String, { description: '1-64 letters, digits, ., _ or -; its CLUSTER_NAME' })
  name!: string;

  @Field(() => String, { description: 'https://... where it answers /graphql and /v1 (checked against the allowed hosts and networks)' })
  base_url!: string;

  @Field(() => String, { description: 'e-mail address or URL of the people who run it' })
  contact!: string;

  @Field(() => [String], { description: 'its PASERK k4.public token keys, as published at <base_url>/v1/user/auth/keys' })
  public_keys!: string[];
}

@ObjectType()
export class VerificationStep {
  @Field(() => String, { description: 'ping | keys | challenge' })
  name!: string;

  @Field(() => Boolean)
  ok!: boolean;

  @Field(() => String)
  detail!: string;
}

@ObjectType({ description: 'The outcome of a verification: active when every step passed.' })
export class ClusterVerification {
  @Field(() => Boolean)
  verified!: boolean;

  @Field(() => [VerificationStep], { description: 'the steps run, in order; the first failure ends it' })
  checks!: VerificationStep[];

  @Field(() => Cluster)
  cluster!: Cluster;
}

@ObjectType({ description: 'TLS of the connection, when the base URL is https.' })
export class TlsInfo {
  @Field(() => String, { nullable: true })
  protocol!: string | null;

  @Field(() => String, { nullable: true })
  cipher!: string | null;

  @Field(() => String, { nullable: true })
  subject!: string | null;

  @Field(() => String, { nullable: true })
  issuer!: string | null;

  @Field(() => String, { nullable: true, description: 'certificate expiry' })
  valid_to!: string | null;

  @Field(() => Boolean, { description: 'the certificate chain was trusted' })
  authorized!: boolean;
}

@ObjectType({ description: 'Round trips to a cluster.' })
export class ConnectivityReport {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => Boolean)
  ok!: boolean;

  @Field(() => String)
  base_url!: string;

  @Field(() => [Float], { description: 'each ping round trip, ms' })
  round_trips_ms!: number[];

  @Field(() => Float, { nullable: true, description: 'median round trip, ms' })
  latency_ms!: number | null;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => String, { nullable: true })
  version!: string | null;

  @Field(() => String, { nullable: true })
  schema_hash!: string | null;

  @Field(() => TlsInfo, { nullable: true, description: 'null over plain http' })
  tls!: TlsInfo | null;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => Date)
  checked_at!: Date;
}

@ObjectType({ description: 'One difference between our API schema and a cluster\'s.' })
export class SchemaChangeView {
  @Field(() => String, { description: "the schema-diff change type, e.g. FIELD_REMOVED" })
  type!: string;

  @Field(() => String, { description: 'BREAKING | DANGEROUS | NON_BREAKING, for a client written against our schema' })
  criticality!: string;

  @Field(() => String)
  message!: string;

  @Field(() => String, { nullable: true, description: 'schema coordinate, e.g. Query.graphMetrics' })
  path!: string | null;
}

@ObjectType({ description: "How a cluster's API schema compares with ours." })
export class SchemaReport {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => String)
  cluster_name!: string;

  @Field(() => Boolean, { description: 'the schema was fetched and compared' })
  ok!: boolean;

  @Field(() => Boolean, { description: 'a client of ours works against it: no breaking change' })
  compatible!: boolean;

  @Field(() => Boolean)
  identical!: boolean;

  @Field(() => [SchemaChangeView], { description: 'what we have that it lacks or changed incompatibly' })
  breaking!: SchemaChangeView[];

  @Field(() => [SchemaChangeView])
  dangerous!: SchemaChangeView[];

  @Field(() => [SchemaChangeView], { description: 'additions on its side and other safe differences' })
  non_breaking!: SchemaChangeView[];

  @Field(() => String)
  our_hash!: string;

  @Field(() => String, { nullable: true })
  their_hash!: string | null;

  @Field(() => String, { nullable: true, description: 'why the schema could not be fetched or read' })
  error!: string | null;

  @Field(() => Date)
  checked_at!: Date;
}

@ObjectType()
export class QueryCheckView {
  @Field(() => String)
  name!: string;

  @Field(() => Boolean)
  ok!: boolean;

  @Field(() => String)
  detail!: string;
}

@ObjectType({ description: 'The standard read-only query run against a cluster, and the shape of its answer.' })
export class QueryTestReport {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => Boolean)
  ok!: boolean;

  @Field(() => Float, { nullable: true })
  latency_ms!: number | null;

  @Field(() => [QueryCheckView])
  checks!: QueryCheckView[];

  @Field(() => Int, { nullable: true, description: 'published datasets the cluster reports' })
  datasets_total!: number | null;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => String, { description: 'the query that was sent' })
  query!: string;

  @Field(() => Date)
  checked_at!: Date;
}

@ObjectType()
export class FederationCounts {
  @Field(() => Int)
  pending!: number;

  @Field(() => Int)
  active!: number;

  @Field(() => Int)
  inactive!: number;

  @Field(() => Int, { description: 'active clusters whose last contact succeeded' })
  up!: number;

  @Field(() => Int, { description: 'active clusters whose last contact failed' })
  down!: number;
}

@ObjectType({ description: 'Every cluster with its state and last contact.' })
export class FederationStatus {
  @Field(() => ClusterPing, { description: 'this cluster' })
  self!: ClusterPing;

  @Field(() => FederationCounts)
  counts!: FederationCounts;

  @Field(() => [Cluster])
  clusters!: Cluster[];

  @Field(() => Boolean, { description: 'active clusters were pinged for this answer (refresh=true)' })
  refreshed!: boolean;
}

@ObjectType()
export class ClusterSchemaState {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  state!: string;

  @Field(() => String, { nullable: true, description: 'hash of the schema last fetched' })
  schema_hash!: string | null;

  @Field(() => Boolean, { nullable: true, description: 'null before the first schema check' })
  compatible!: boolean | null;

  @Field(() => Int, { nullable: true })
  breaking_changes!: number | null;

  @Field(() => Date, { nullable: true })
  checked_at!: Date | null;
}

@ObjectType({ description: 'Our API schema and each cluster\'s compatibility with it.' })
export class FederationSchema {
  @Field(() => String)
  sdl!: string;

  @Field(() => String)
  hash!: string;

  @Field(() => [ClusterSchemaState])
  clusters!: ClusterSchemaState[];
}

@ObjectType({ description: 'Schemas fetched from every active cluster and compared with ours.' })
export class SchemaSyncResult {
  @Field(() => String)
  our_hash!: string;

  @Field(() => Date)
  synced_at!: Date;

  @Field(() => Int)
  compatible!: number;

  @Field(() => Int)
  incompatible!: number;

  @Field(() => Int, { description: 'clusters whose schema could not be fetched' })
  failed!: number;

  @Field(() => [SchemaReport])
  clusters!: SchemaReport[];
}

@ObjectType({ description: 'One operation of a benchmark run against a cluster.' })
export class BenchmarkResult {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'shared by the operations of one run' })
  run_id!: string;

  @Field(() => ID)
  cluster_id!: string;

  @Field(() => String)
  cluster_name!: string;

  @Field(() => String, { description: 'ping | search | probe' })
  operation!: string;

  @Field(() => Int)
  requests!: number;

  @Field(() => Int)
  concurrency!: number;

  @Field(() => Int, { description: 'requests that failed or answered with errors' })
  errors!: number;

  @Field(() => Float, { nullable: true, description: 'null when every request failed' })
  min_ms!: number | null;

  @Field(() => Float, { nullable: true })
  p50_ms!: number | null;

  @Field(() => Float, { nullable: true })
  p99_ms!: number | null;

  @Field(() => Float, { nullable: true })
  max_ms!: number | null;

  @Field(() => Float, { nullable: true })
  mean_ms!: number | null;

  @Field(() => Float)
  requests_per_sec!: number;

  @Field(() => Date)
  started_at!: Date;

  @Field(() => Float)
  duration_ms!: number;

  @Field(() => String)
  our_version!: string;

  @Field(() => String, { nullable: true })
  their_version!: string | null;
}

@ObjectType()
export class BenchmarkRun {
  @Field(() => ID)
  run_id!: string;

  @Field(() => ID)
  cluster_id!: string;

  @Field(() => [BenchmarkResult])
  results!: BenchmarkResult[];
}

@ObjectType()
export class BenchmarkPage extends PageOf(BenchmarkResult) {}

@ObjectType({ description: 'Benchmarks of one cluster and operation within one time bucket.' })
export class BenchmarkAggregateRow {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => String)
  cluster_name!: string;

  @Field(() => String)
  operation!: string;

  @Field(() => Date, { description: 'start of the bucket (UTC)' })
  bucket_start!: Date;

  @Field(() => Int)
  runs!: number;

  @Field(() => Int)
  requests!: number;

  @Field(() => Int)
  errors!: number;

  @Field(() => Float, { description: 'errors / requests' })
  error_rate!: number;

  @Field(() => Float, { nullable: true, description: "median of the runs' p50" })
  p50_ms_median!: number | null;

  @Field(() => Float, { nullable: true, description: "worst of the runs' p99" })
  p99_ms_max!: number | null;

  @Field(() => Float, { nullable: true, description: 'mean latency over every successful request' })
  mean_ms!: number | null;

  @Field(() => Float)
  requests_per_sec_mean!: number;
}

@ObjectType()
export class BenchmarkAggregate {
  @Field(() => String, { description: 'hour | day | week' })
  bucket!: string;

  @Field(() => [BenchmarkAggregateRow])
  items!: BenchmarkAggregateRow[];
}

@ArgsType()
export class BenchmarkArgs {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => [String], { nullable: true, description: 'ping | search | probe (default ping and search)' })
  operations?: string[];

  @Field(() => Int, { nullable: true, description: 'requests per operation, 1..200 (default 20)' })
  requests?: number;

  @Field(() => Int, { nullable: true, description: 'requests in flight, 1..10 (default 4)' })
  concurrency?: number;
}
