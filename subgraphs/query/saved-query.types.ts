import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../schema/scalars.js';
import { PageOf } from '../../schema/page.types.js';
import { Job } from '../../lib/jobs/jobs.types.js';
import { SyqlPlanResult } from './syql.types.js';

@ObjectType({ description: 'A saved SyQL query (its owner alone sees it).' })
export class SavedQuery {
  @Field(() => String)
  id!: string;
  @Field(() => String)
  name!: string;
  @Field(() => String, { nullable: true })
  description!: string | null;
  @Field(() => String, { description: 'the SyQL text' })
  query!: string;
  @Field(() => JSONObjectScalar)
  parameters!: Record<string, unknown>;
  @Field(() => Date, { nullable: true })
  last_run_at!: Date | null;
  @Field(() => Job, { nullable: true, description: 'the job of the last run, with its result' })
  last_job!: Job | null;
  @Field(() => String, { nullable: true, description: 'the job of the run before (its result stays available)' })
  previous_job_id!: string | null;
  @Field(() => Date)
  created_at!: Date;
  @Field(() => Date)
  updated_at!: Date;
}

@ObjectType()
export class SavedQueryPage extends PageOf(SavedQuery) {}

@ArgsType()
export class SavedQueryIdArgs {
  @Field(() => String)
  id!: string;
}

@ArgsType()
export class SavedQueryListArgs {
  @Field(() => Int, { nullable: true, description: '1..100 (default 20)' })
  limit?: number | null;
  @Field(() => Int, { nullable: true })
  offset?: number | null;
}

@InputType({ description: 'A query to save.' })
export class CreateSavedQueryInput {
  @Field(() => String, { description: 'unique among your saved queries' })
  name!: string;
  @Field(() => String, { nullable: true })
  description?: string | null;
  @Field(() => String, { description: 'the SyQL text (its syntax is checked now, its datasets when it runs)' })
  query!: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'values of its $parameters' })
  parameters?: Record<string, unknown> | null;
}

@InputType({ description: 'A query to plan and save.' })
export class SavedQueryFromSyqlInput {
  @Field(() => String, { description: 'the SyQL text; saved in canonical form once it plans' })
  query!: string;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'values of its $parameters' })
  parameters?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true, description: 'unique among your saved queries (default: the first line of the canonical query)' })
  name?: string | null;
  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType({ description: 'Changes to a saved query: the fields given replace the saved ones.' })
export class UpdateSavedQueryInput {
  @Field(() => String, { nullable: true })
  name?: string | null;
  @Field(() => String, { nullable: true, description: 'null clears it' })
  description?: string | null;
  @Field(() => String, { nullable: true })
  query?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true })
  parameters?: Record<string, unknown> | null;
}

@ObjectType()
export class SavedFromSyql {
  @Field(() => SavedQuery)
  saved_query!: SavedQuery;
  @Field(() => SyqlPlanResult, { description: 'the plan it was checked with' })
  plan!: SyqlPlanResult;
}

@ObjectType()
export class SavedQueryDeletion {
  @Field(() => String)
  id!: string;
  @Field(() => Boolean)
  deleted!: boolean;
}

@ObjectType({ description: 'A dataset reference of a saved query and the version a run resolved it to.' })
export class PinnedVersion {
  @Field(() => String)
  ref!: string;
  @Field(() => Int)
  version!: number;
  @Field(() => Int, { nullable: true, description: 'the version of the run before' })
  previous_version!: number | null;
  @Field(() => Boolean)
  changed!: boolean;
}

@ObjectType()
export class SavedQueryRefresh {
  @Field(() => SavedQuery)
  saved_query!: SavedQuery;
  @Field(() => Job, { description: 'the new run' })
  job!: Job;
  @Field(() => Job, { nullable: true, description: 'the run before, whose result stays available' })
  previous_job!: Job | null;
  @Field(() => [PinnedVersion])
  versions!: PinnedVersion[];
}
