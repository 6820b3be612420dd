import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A short reference to a term.' })
export class TermRef {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  vocabulary!: string;

  @Field(() => String)
  code!: string;

  @Field(() => String)
  label!: string;
}

@ObjectType({ description: 'An active term close to an unrecognized or deprecated value.' })
export class TermSuggestion extends TermRef {
  @Field(() => Float, { description: 'pg_trgm similarity (or word similarity) of the closest name, 0..1' })
  score!: number;

  @Field(() => String, { description: 'the code, label or synonym that matched' })
  matched!: string;
}

@ObjectType({ description: 'The verdict on one value.' })
export class TermValidationResult {
  @Field(() => String, { description: 'the value as given' })
  input!: string;

  @Field(() => String, { description: 'valid | deprecated | unrecognized' })
  status!: string;

  @Field(() => String, { nullable: true, description: 'code | label, for valid and deprecated values' })
  matched_by!: string | null;

  @Field(() => TermRef, { nullable: true, description: 'the term the value names' })
  term!: TermRef | null;

  @Field(() => TermRef, { nullable: true, description: 'for a deprecated term: its replacement, when one is set' })
  replaced_by!: TermRef | null;

  @Field(() => [TermSuggestion], { description: 'up to five active terms, closest first; empty for valid values' })
  suggestions!: TermSuggestion[];
}

@ObjectType({
  description:
    'Which values are valid (the code or label of an active term, case- and accent-insensitive), which name deprecated terms, and which are unrecognized.',
})
export class TermValidation {
  @Field(() => [String])
  valid!: string[];

  @Field(() => [String])
  deprecated!: string[];

  @Field(() => [String])
  unrecognized!: string[];

  @Field(() => [TermValidationResult], { description: 'one result per value, in request order' })
  results!: TermValidationResult[];

  @Field(() => Int, {
    description:
      'distinct values that needed suggestions beyond the first 1,000 of the request: they are classified but their suggestions are empty; send them again in a smaller batch to get suggestions',
  })
  suggestions_omitted!: number;
}
