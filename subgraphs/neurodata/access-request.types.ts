import { Field, ID, ObjectType } from 'type-graphql';
import { DatasetAccessSummary, PublicProfileRef } from './dataset.types.js';

@ObjectType({ description: 'A request to read a restricted dataset\'s data.' })
export class AccessRequest {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  dataset_id!: string;

  @Field(() => ID)
  requester_id!: string;

  @Field(() => PublicProfileRef)
  requester!: PublicProfileRef;

  @Field(() => String, { description: 'pending | approved | denied' })
  status!: string;

  @Field(() => String, { nullable: true })
  message!: string | null;

  @Field(() => String, { nullable: true, description: "the owner's or maintainer's answer" })
  response_message!: string | null;

  @Field(() => ID, { nullable: true })
  decided_by!: string | null;

  @Field(() => Date, { nullable: true })
  decided_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@ObjectType({ description: "The caller's access to a dataset, their own request, and (for the owner and maintainers) every request." })
export class DatasetAccessView {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => String)
  visibility!: string;

  @Field(() => DatasetAccessSummary)
  access!: DatasetAccessSummary;

  @Field(() => AccessRequest, { nullable: true })
  request!: AccessRequest | null;

  @Field(() => [AccessRequest], { description: 'pending first; empty unless the caller may decide them' })
  requests!: AccessRequest[];
}
