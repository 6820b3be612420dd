import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../schema/page.types.js';

@ObjectType({ description: 'One operation of a benchmark run against a cluster.' })
export class BenchmarkResult {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'shared by the operations of one run' })
  run_id!: string;

  @Field(() => ID)
  cluster_id!: string;

  @Field(() => String)
  cluster_name!: string;

  @Field(() => String, { description: 'ping | search | probe' })
  operation!: string;

  @Field(() => Int)
  requests!: number;

  @Field(() => Int)
  concurrency!: number;

  @Field(() => Int, { description: 'requests that failed or answered with errors' })
  errors!: number;

  @Field(() => Float, { nullable: true, description: 'null when every request failed' })
  min_ms!: number | null;

  @Field(() => Float, { nullable: true })
  p50_ms!: number | null;

  @Field(() => Float, { nullable: true })
  p99_ms!: number | null;

  @Field(() => Float, { nullable: true })
  max_ms!: number | null;

  @Field(() => Float, { nullable: true })
  mean_ms!: number | null;

  @Field(() => Float)
  requests_per_sec!: number;

  @Field(() => Date)
  started_at!: Date;

  @Field(() => Float)
  duration_ms!: number;

  @Field(() => String)
  our_version!: string;

  @Field(() => String, { nullable: true })
  their_version!: string | null;
}

@ObjectType()
export class BenchmarkRun {
  @Field(() => ID)
  run_id!: string;

  @Field(() => ID)
  cluster_id!: string;

  @Field(() => [BenchmarkResult])
  results!: BenchmarkResult[];
}

@ObjectType()
export class BenchmarkPage extends PageOf(BenchmarkResult) {}

@ObjectType({ description: 'Benchmarks of one cluster and operation within one time bucket.' })
export class BenchmarkAggregateRow {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => String)
  cluster_name!: string;

  @Field(() => String)
  operation!: string;

  @Field(() => Date, { description: 'start of the bucket (UTC)' })
  bucket_start!: Date;

  @Field(() => Int)
  runs!: number;

  @Field(() => Int)
  requests!: number;

  @Field(() => Int)
  errors!: number;

  @Field(() => Float, { description: 'errors / requests' })
  error_rate!: number;

  @Field(() => Float, { nullable: true, description: "median of the runs' p50" })
  p50_ms_median!: number | null;

  @Field(() => Float, { nullable: true, description: "worst of the runs' p99" })
  p99_ms_max!: number | null;

  @Field(() => Float, { nullable: true, description: 'mean latency over every successful request' })
  mean_ms!: number | null;

  @Field(() => Float)
  requests_per_sec_mean!: number;
}

@ObjectType()
export class BenchmarkAggregate {
  @Field(() => String, { description: 'hour | day | week' })
  bucket!: string;

  @Field(() => [BenchmarkAggregateRow])
  items!: BenchmarkAggregateRow[];
}

@ArgsType()
export class BenchmarkArgs {
  @Field(() => ID)
  cluster_id!: string;

  @Field(() => [String], { nullable: true, description: 'ping | search | probe (default ping and search)' })
  operations?: string[];

  @Field(() => Int, { nullable: true, description: 'requests per operation, 1..200 (default 20)' })
  requests?: number;

  @Field(() => Int, { nullable: true, description: 'requests in flight, 1..10 (default 4)' })
  concurrency?: number;
}
