import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../schema/scalars.js';
import { SafeIntResolver as SafeIntScalar } from 'graphql-scalars';
import { SyqlRowScalar, SyqlValueScalar } from './syql.scalars.js';

@ArgsType()
export class SyqlArgs {
  @Field(() => String, { description: 'the SyQL text (docs/syql.md)' })
  query!: string;

  @Field(() => JSONObjectScalar, { nullable: true, description: 'values of the $parameters the query uses, by name' })
  parameters?: Record<string, unknown> | null;
}

@ArgsType()
export class SyqlExecArgs extends SyqlArgs {
  @Field(() => String, { nullable: true, description: 'the id to run the query under (1-64 letters, digits, - or _), so that another request can cancel it; default a new UUID' })
  query_id?: string | null;

  @Field(() => Int, { nullable: true, description: 'rows to answer at most, 0..10000 (default 1000); total still counts them all' })
  max_rows?: number | null;
}

@ArgsType()
export class SyqlCancelArgs {
  @Field(() => String, { description: 'the query_id the query runs under' })
  query_id!: string;
}

@ObjectType({ description: 'A dataset version a query reads.' })
export class SyqlDataset {
  @Field(() => String, { description: 'the reference as the query writes it' })
  ref!: string;
  @Field(() => String)
  dataset_id!: string;
  @Field(() => String)
  slug!: string;
  @Field(() => Int)
  version!: number;
  @Field(() => Boolean, { description: "true when the query reads the owner's unpublished draft" })
  is_draft!: boolean;
  @Field(() => String, { description: 'slug@vN: the value of the dataset column when a query reads several datasets' })
  label!: string;
}

@ObjectType({ description: 'A result column.' })
export class SyqlColumn {
  @Field(() => String)
  name!: string;
  @Field(() => String, { description: 'string, integer, float or boolean' })
  type!: string;
  @Field(() => Boolean)
  nullable!: boolean;
  @Field(() => String, { description: 'the ClickHouse type of the column in the compiled SQL' })
  clickhouse_type!: string;
}

@ObjectType({ description: 'A checked query: its canonical text, the dataset versions it reads and its result columns.' })
export class SyqlPlanResult {
  @Field(() => String, { description: 'the query in canonical form' })
  normalised!: string;
  @Field(() => [SyqlDataset])
  datasets!: SyqlDataset[];
  @Field(() => [SyqlColumn])
  columns!: SyqlColumn[];
  @Field(() => [String], { description: 'names of the parameters given' })
  parameters!: string[];
}

@ObjectType({ description: 'A bound parameter of the compiled SQL.' })
export class SyqlBoundParameter {
  @Field(() => String)
  name!: string;
  @Field(() => String, { description: 'its ClickHouse type' })
  type!: string;
  @Field(() => SyqlValueScalar, { nullable: true })
  value!: unknown;
}

@ObjectType({ description: 'The ClickHouse SQL a query compiles to, with its bound parameters, and the engine plan.' })
export class SyqlExplainResult extends SyqlPlanResult {
  @Field(() => String, { description: 'the SQL, every value a {name:Type} placeholder' })
  sql!: string;
  @Field(() => [SyqlBoundParameter])
  bound_parameters!: SyqlBoundParameter[];
  @Field(() => String, { description: 'chdb or clickhouse' })
  engine!: string;
  @Field(() => String, { nullable: true, description: "the engine's EXPLAIN PLAN (null where the engine has none: ClickHouse before 20.6)" })
  engine_plan!: string | null;
  @Field(() => SafeIntScalar, { description: 'rows of the partitions the query may read at most (connections counted once per hop)' })
  estimated_rows_read!: number;
}

@ObjectType({ description: 'Rows of a query run within the request.' })
export class SyqlExecResult extends SyqlPlanResult {
  @Field(() => String, { description: 'the id the query ran under' })
  query_id!: string;
  @Field(() => [SyqlRowScalar], { description: 'the rows, each a list of values in the order of columns' })
  rows!: unknown[][];
  @Field(() => SafeIntScalar, { description: 'how many rows the query yields in all' })
  total!: number;
  @Field(() => Boolean, { description: 'true when rows holds fewer than total (raise max_rows, or run a job: POST /v1/jobs)' })
  truncated!: boolean;
  @Field(() => Float)
  elapsed_ms!: number;
}

@ObjectType()
export class SyqlCancelResult {
  @Field(() => String)
  query_id!: string;
  @Field(() => Boolean)
  cancelled!: boolean;
  @Field(() => Boolean, { description: 'whether the engine was still running it when the cancel reached it' })
  engine_stopped!: boolean;
}
