import { Args, ArgsType, Ctx, Field, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../../lib/access.js';
import type { RequestContext } from '../../../lib/context.js';
import { BadInput } from '../../../lib/errors.js';
import { FullAnalysisArgsType } from '../../graph/index.js';
import type { JobService } from './job.service.js';
import type { SavedQueryService } from '../saved-query.service.js';
import { Job, JobIdArgs, JobListArgs, JobPage, JobRemoval, JobResultDownload, SubmitJobArgs, jobOut } from './jobs.types.js';

@ArgsType()
export class GraphJobArgs extends FullAnalysisArgsType {
  @Field(() => String, { nullable: true, description: 'full-analysis (the only analysis run as a job; the default)' })
  analysis?: string | null;
}

/** Jobs (spec 4.3 Jobs; docs/jobs.md): the owner's, Academic; a SuperUser may look at and cancel any. */
@Resolver()
export class JobsResolver {
  constructor(
    private readonly service: JobService,
    private readonly saved: SavedQueryService,
  ) {}

  @Mutation(() => Job, { description: 'Queues a SyQL job ({query, parameters} or {saved_query_id}); its result is an Arrow IPC stream of every row.' })
  @Access(AccessClass.Academic)
  async submitQueryJob(@Ctx() ctx: RequestContext, @Args(() => SubmitJobArgs) args: SubmitJobArgs) {
    if (args.saved_query_id) {
      if (args.query) throw new BadInput('give either query or saved_query_id, not both');
      return jobOut(await this.saved.run(ctx, args.saved_query_id));
    }
    if (!args.query) throw new BadInput('query: give the SyQL text, or saved_query_id');
    return jobOut(await this.service.submitSyql(ctx, { query: args.query, parameters: args.parameters }));
  }

  @Mutation(() => Job, { description: 'Queues a graph analysis job: the full analysis of POST /v1/graph/{dataset_id}/full-analysis, whatever its time, with progress.' })
  @Access(AccessClass.Academic)
  async submitGraphJob(@Ctx() ctx: RequestContext, @Args(() => GraphJobArgs) args: GraphJobArgs) {
    const { analysis, ...rest } = args;
    if (analysis != null && analysis !== 'full-analysis') throw new BadInput(`analysis: only full-analysis runs as a job (got ${JSON.stringify(analysis)})`);
    return jobOut(await this.service.submitGraph(ctx, { ...rest }));
  }

  @Query(() => JobPage, { description: 'Your jobs, newest first; ?status= filters.' })
  @Access(AccessClass.Academic)
  async jobs(@Ctx() ctx: RequestContext, @Args(() => JobListArgs) args: JobListArgs) {
    const page = await this.service.list(ctx, args);
    return { ...page, items: page.items.map(jobOut) };
  }

  @Query(() => Job, { description: 'A job: status, progress, timestamps, error, result size and rows.' })
  @Access(AccessClass.Academic)
  async job(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return jobOut(await this.service.view(ctx, args.job_id));
  }

  @Mutation(() => JobRemoval, { description: 'Cancels a queued or running job; deletes a finished one and its result.' })
  @Access(AccessClass.Academic)
  async deleteJob(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return this.service.remove(ctx, args.job_id);
  }

  @Mutation(() => Job, { description: 'A new job with the same input (same text, parameters and dataset versions).' })
  @Access(AccessClass.Academic)
  async rerunJob(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return jobOut(await this.service.rerun(ctx, args.job_id));
  }

  @Query(() => JobResultDownload, { description: "A signed URL of a finished job's Arrow result, with its size, rows and SHA-256." })
  @Access(AccessClass.Academic)
  async jobResultDownload(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return this.service.resultDownload(ctx, args.job_id, ctx.baseUrl ?? '');
  }
}
