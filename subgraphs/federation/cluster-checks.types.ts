import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

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
