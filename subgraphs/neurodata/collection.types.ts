import { PageOf } from '../../schema/page.types.js';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Dataset } from './dataset.types.js';

@ObjectType({ description: 'A named set of datasets, private to its owner or public.' })
export class Collection {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  owner_id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String, { description: 'private (default) | public' })
  visibility!: string;

  @Field(() => [ID], { description: 'the datasets of the collection the caller may see' })
  dataset_ids!: string[];

  @Field(() => [Dataset])
  datasets!: Dataset[];

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@ObjectType()
export class CollectionPage extends PageOf(Collection) {}

@InputType()
export class CreateCollectionInput {
  @Field(() => String)
  title!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'private (default) | public' })
  visibility?: string | null;

  @Field(() => [String], { nullable: true, description: 'dataset ids or slugs to start with' })
  dataset_ids?: string[] | null;
}

@ObjectType()
export class DeletedCollection {
  @Field(() => ID)
  id!: string;

  @Field(() => Boolean)
  deleted!: boolean;
}
