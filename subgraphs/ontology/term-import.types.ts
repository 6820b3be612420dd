import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'What a CSV import did. Importing the same file again reports every row unchanged.' })
export class TermImportReport {
  @Field(() => Int)
  created!: number;

  @Field(() => Int)
  updated!: number;

  @Field(() => Int)
  unchanged!: number;

  @Field(() => [String], { description: 'the vocabularies the file wrote to' })
  vocabularies!: string[];
}
