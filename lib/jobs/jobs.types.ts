import { ArgsType, Directive, Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { JSONObjectScalar } from '../../schema/scalars.js';
import { PageOf } from '../../schema/page.types.js';
import type { JobRecord } from './job.model.js';

export enum JobStatusValue {
  queued = 'queued',
  running = 'running',
  succeeded = 'succeeded',
  failed = 'failed',
  cancelled = 'cancelled',
}
registerEnumType(JobStatusValue, { name: 'JobStatus', description: 'queued -> running -> succeeded | failed | cancelled (a running job whose worker stopped goes back to queued while attempts remain)' });

// Shareable: the query subgraph answers jobs, and each subgraph that owns a kind answers its submissions.
@ObjectType({ description: 'A job: a SyQL export or a graph analysis run for its owner.' })
@Directive('@shareable')
export class Job {
  @Field(() => String)
  job_id!: string;
  @Field(() => String, { description: 'syql or graph' })
  kind!: string;
  @Field(() => JobStatusValue)
  status!: JobStatusValue;
  @Field(() => Float, { description: '0..1' })
  progress!: number;
  @Field(() => String, { nullable: true, description: 'what the job is doing, or did last' })
  progress_message!: string | null;
  @Field(() => String, { nullable: true, description: 'why it failed' })
  error!: string | null;
  @Field(() => JSONObjectScalar, { description: 'what was submitted: SyQL text, parameters and the dataset versions pinned at submission; or the graph analysis' })
  input!: Record<string, unknown>;
  @Field(() => String, { nullable: true })
  saved_query_id!: string | null;
  @Field(() => Int, { description: 'attempts started (a worker that stops mid-job costs one)' })
  attempts!: number;
  @Field(() => Int)
  max_attempts!: number;
  @Field(() => Date)
  created_at!: Date;
  @Field(() => Date, { nullable: true, description: 'when the latest attempt started' })
  started_at!: Date | null;
  @Field(() => Date, { nullable: true })
  finished_at!: Date | null;
  @Field(() => SafeIntResolver, { nullable: true, description: 'bytes of the Arrow result' })
  result_bytes!: number | null;
  @Field(() => SafeIntResolver, { nullable: true, description: 'rows of the result' })
  result_rows!: number | null;
  @Field(() => String, { nullable: true, description: 'SHA-256 of the result, lower-case hex' })
  result_sha256!: string | null;
  @Field(() => String, { nullable: true, description: 'where to download the result (Apache Arrow IPC stream) once the job succeeded' })
  result_url!: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'SyQL: the normalised query, datasets and columns; graph: the whole analysis' })
  result_meta!: Record<string, unknown> | null;
}

export function jobOut(j: JobRecord): Job {
  return {
    job_id: j.id,
    kind: j.kind,
    status: j.status as JobStatusValue,
    progress: j.progress,
    progress_message: j.progressMessage,
    error: j.error,
    input: j.input,
    saved_query_id: j.savedQueryId,
    attempts: j.attempts,
    max_attempts: j.maxAttempts,
    created_at: j.createdAt,
    started_at: j.startedAt,
    finished_at: j.finishedAt,
    result_bytes: j.resultBytes,
    result_rows: j.resultRows,
    result_sha256: j.resultSha256,
    result_url: j.status === 'succeeded' && j.resultKey ? `/v1/jobs/${j.id}/result` : null,
    result_meta: j.resultMeta,
  };
}

@ObjectType()
export class JobPage extends PageOf(Job) {}

@ArgsType()
export class JobIdArgs {
  @Field(() => String)
  job_id!: string;
}

@ArgsType()
export class JobListArgs {
  @Field(() => String, { nullable: true, description: 'only jobs in these states: queued, running, succeeded, failed, cancelled (comma-separated)' })
  status?: string | null;
  @Field(() => Int, { nullable: true, description: '1..100 (default 20)' })
  limit?: number | null;
  @Field(() => Int, { nullable: true })
  offset?: number | null;
}

@ObjectType()
export class JobRemoval {
  @Field(() => String)
  job_id!: string;
  @Field(() => String, { description: 'cancelled (it was queued or running; it stays listed) or deleted (with its result)' })
  action!: string;
  @Field(() => JobStatusValue)
  status!: JobStatusValue;
}

@ObjectType({ description: "Where a finished job's Arrow result can be downloaded without a token, until expires_at." })
export class JobResultDownload {
  @Field(() => String)
  url!: string;
  @Field(() => Date)
  expires_at!: Date;
  @Field(() => SafeIntResolver)
  size!: number;
  @Field(() => String)
  sha256!: string;
  @Field(() => SafeIntResolver)
  rows!: number;
  @Field(() => String)
  media_type!: string;
  @Field(() => String)
  filename!: string;
}
