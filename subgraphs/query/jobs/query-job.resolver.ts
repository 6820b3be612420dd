import { Args, Ctx, Mutation, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../../lib/access.js';
import type { RequestContext } from '../../../lib/context.js';
import { BadInput } from '../../../lib/errors.js';
import { Job, jobOut } from '../../../lib/jobs/jobs.types.js';
import type { SavedQueryService } from '../saved-query.service.js';
import type { SubmitSyqlJob } from './syql-job.js';
import { SubmitJobArgs } from './query-job.types.js';

/** Submits SyQL jobs (spec 4.3 Jobs; docs/jobs.md); the jobs platform's fields look at them afterwards. */
@Resolver()
export class QueryJobResolver {
  constructor(
    private readonly submit: SubmitSyqlJob,
    private readonly saved: SavedQueryService,
  ) {}

  @Mutation(() => Job, { description: 'Queues a SyQL job ({query, parameters} or {saved_query_id}); its result is an Arrow IPC stream of every row.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async submitQueryJob(@Ctx() ctx: RequestContext, @Args(() => SubmitJobArgs) args: SubmitJobArgs) {
    if (args.saved_query_id) {
      if (args.query) throw new BadInput('give either query or saved_query_id, not both');
      return jobOut(await this.saved.run(ctx, args.saved_query_id));
    }
    if (!args.query) throw new BadInput('query: give the SyQL text, or saved_query_id');
    return jobOut(await this.submit(ctx, { query: args.query, parameters: args.parameters }));
  }
}
