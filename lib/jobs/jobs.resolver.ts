import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../access.js';
import type { RequestContext } from '../context.js';
import type { JobService } from './job.service.js';
import { Job, JobIdArgs, JobListArgs, JobPage, JobRemoval, JobResultDownload, jobOut } from './jobs.types.js';
import { rootLookup } from '../root-lookup.js';

/**
 * Jobs of every kind (spec 4.3 Jobs; docs/jobs.md): the owner's, Academic; a SuperUser may look at and cancel any.
 * Served by the query subgraph; each kind's submission is its owner subgraph's field.
 */
@Resolver()
export class JobsResolver {
  constructor(private readonly service: JobService) {}

  @Query(() => JobPage, { description: 'Your jobs, newest first; ?status= filters.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async jobs(@Ctx() ctx: RequestContext, @Args(() => JobListArgs) args: JobListArgs) {
    const page = await this.service.list(ctx, args);
    return { ...page, items: page.items.map(jobOut) };
  }

  @Query(() => Job, rootLookup('A job: status, progress, timestamps, error, result size and rows.'))
  @Access(AccessClass.Academic, { token: 'compute' })
  async job(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return jobOut(await this.service.view(ctx, args.job_id));
  }

  @Mutation(() => JobRemoval, { description: 'Cancels a queued or running job; deletes a finished one and its result.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async deleteJob(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return this.service.remove(ctx, args.job_id);
  }

  @Mutation(() => Job, { description: 'A new job with the same input (same text, parameters and dataset versions).' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async rerunJob(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return jobOut(await this.service.rerun(ctx, args.job_id));
  }

  @Query(() => JobResultDownload, { description: "A signed URL of a finished job's Arrow result, with its size, rows and SHA-256." })
  @Access(AccessClass.Academic, { token: 'compute' })
  async jobResultDownload(@Ctx() ctx: RequestContext, @Args(() => JobIdArgs) args: JobIdArgs) {
    return this.service.resultDownload(ctx, args.job_id, ctx.baseUrl ?? '');
  }
}
