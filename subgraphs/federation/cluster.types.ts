import { Field, Float, ID, ObjectType } from 'type-graphql';

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
