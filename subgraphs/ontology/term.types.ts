import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { JSONResolver } from 'graphql-scalars';
import { JSONObjectScalar } from '../../schema/scalars.js';

// Inputs take metadata as any JSON value and the service checks it is an object: a scalar's own parse error inside
// a subgraph reaches the client without a code (a 500), while the service's BadInput is a 400 naming the field.
const MetadataInput = JSONResolver;

@ObjectType({ description: 'A controlled vocabulary: a named set of terms, such as brain_region or species.' })
export class Vocabulary {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => Int, { description: 'active terms' })
  term_count!: number;

  @Field(() => Int, { description: 'deprecated terms (stored, flagged)' })
  deprecated_count!: number;
}

@ObjectType({ description: 'A term of a controlled vocabulary. Deprecated terms stay stored and are flagged.' })
@Directive('@key(fields: "id")')
export class Term {
  @Field(() => ID, { description: 'UUID v7' })
  id!: string;

  @Field(() => String)
  vocabulary!: string;

  @Field(() => String, { description: 'unique within the vocabulary, e.g. MBA:382' })
  code!: string;

  @Field(() => String, { description: 'human-readable label, e.g. Field CA1' })
  label!: string;

  @Field(() => String, { description: 'the older form of label' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'free text (the older term form)' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'external reference (an ontology IRI)' })
  uri!: string | null;

  @Field(() => ID, { nullable: true, description: 'parent term in the same vocabulary; null for a root' })
  parent_id!: string | null;

  @Field(() => JSONObjectScalar, { description: 'free-form key/value content' })
  metadata!: Record<string, unknown>;

  @Field(() => [String], { description: 'other names the term is found by (acronyms, common names, ROI names)' })
  synonyms!: string[];

  @Field(() => String, { description: 'active | deprecated' })
  status!: string;

  @Field(() => Boolean, { description: 'true when the term is deprecated' })
  deprecated!: boolean;

  @Field(() => ID, { nullable: true, description: 'the term that replaces a deprecated one' })
  replaced_by!: string | null;

  @Field(() => Date, { nullable: true })
  deprecated_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@ObjectType({ description: 'One page of terms.' })
export class TermPage {
  @Field(() => [Term])
  items!: Term[];

  @Field(() => Int, { description: 'matching terms before paging' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  offset!: number;
}

@InputType({
  description:
    'A new term. Current form: vocabulary, code, label, optional parent_id, uri, metadata. Older form: name, vocabulary, optional parent_id, description (the name is then both code and label). Give one form.',
})
export class CreateTermInput {
  @Field(() => String, { description: 'vocabulary name, e.g. brain_region; created when new' })
  vocabulary!: string;

  @Field(() => String, { nullable: true })
  code?: string | null;

  @Field(() => String, { nullable: true })
  label?: string | null;

  @Field(() => String, { nullable: true, description: 'older form: code and label in one' })
  name?: string | null;

  @Field(() => ID, { nullable: true })
  parent_id?: string | null;

  @Field(() => String, { nullable: true })
  uri?: string | null;

  @Field(() => MetadataInput, { nullable: true, description: 'a JSON object' })
  metadata?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [String], { nullable: true })
  synonyms?: string[] | null;
}

@InputType({
  description:
    'Changes to a term. Current form: any of label, uri, metadata. Older form: description (name is accepted for label). Also parent_id and synonyms. An absent field is kept; null clears uri, description, parent_id, metadata and synonyms.',
})
export class UpdateTermInput {
  @Field(() => String, { nullable: true })
  label?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  uri?: string | null;

  @Field(() => MetadataInput, { nullable: true, description: 'a JSON object' })
  metadata?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => ID, { nullable: true, description: 'moves the term; 409 when it would make a cycle' })
  parent_id?: string | null;

  @Field(() => [String], { nullable: true, description: 'replaces the synonyms' })
  synonyms?: string[] | null;
}
