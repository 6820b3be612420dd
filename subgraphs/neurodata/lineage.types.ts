import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One lineage link, seen from the dataset asked about.' })
export class LineageLink {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'the dataset at the other end of the link' })
  dataset_id!: string;

  @Field(() => String, { nullable: true, description: 'null when that dataset was deleted' })
  slug!: string | null;

  @Field(() => String, { description: 'its title (as recorded, for a deleted dataset)' })
  title!: string;

  @Field(() => Int, { nullable: true, description: 'upstream: the source version derived from; downstream: the derived dataset\'s latest version' })
  version!: number | null;

  @Field(() => String, { description: 'derived_from | subset_of | reanalysis_of | merged_from | proofread_from | converted_from' })
  relation!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => Boolean)
  deleted!: boolean;

  @Field(() => ID)
  created_by!: string;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType()
export class DatasetLineage {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => [LineageLink], { description: 'what this dataset was derived from' })
  upstream!: LineageLink[];

  @Field(() => [LineageLink], { description: 'datasets derived from this one' })
  downstream!: LineageLink[];
}

@InputType()
export class DeclareLineageInput {
  @Field(() => String, { description: 'the source dataset: id or slug (optionally slug@v2)' })
  derived_from!: string;

  @Field(() => String, { nullable: true, description: "the source's published version: v1, 2, ... or latest (the default)" })
  version?: string | null;

  @Field(() => String, { nullable: true, description: 'default derived_from' })
  relation?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;
}
