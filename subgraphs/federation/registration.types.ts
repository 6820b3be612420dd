import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { Cluster } from './cluster.types.js';

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
