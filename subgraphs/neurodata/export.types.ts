import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A citation of a dataset version, as text in the chosen format.' })
export class DatasetCitation {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int, { nullable: true, description: 'null when a draft is cited' })
  version!: number | null;

  @Field(() => String, { description: 'bibtex | ris' })
  format!: string;

  @Field(() => String)
  media_type!: string;

  @Field(() => String)
  filename!: string;

  @Field(() => String)
  text!: string;
}
