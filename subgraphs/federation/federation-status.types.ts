import { Field, ID, Int, ObjectType } from 'type-graphql';
import { SchemaReport } from './cluster-checks.types.js';
import { Cluster } from './cluster.types.js';
import { ClusterPing } from './registration.types.js';

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
