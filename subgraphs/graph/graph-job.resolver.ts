import { Args, ArgsType, Ctx, Field, Mutation, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { BadInput } from '../../lib/errors.js';
import type { Caller, JobInput, JobRecord } from '../../lib/jobs/index.js';
import { Job, jobOut } from '../../lib/jobs/jobs.types.js';
import { FullAnalysisArgs } from './graph.args.js';

@ArgsType()
export class GraphJobArgs extends FullAnalysisArgs {
  @Field(() => String, { nullable: true, description: 'full-analysis (the only analysis run as a job; the default)' })
  analysis?: string | null;
}

/** Submits graph analyses as jobs (docs/jobs.md); the jobs platform's fields look at them afterwards. */
@Resolver()
export class GraphJobResolver {
  constructor(private readonly submit: (ctx: Caller, input: JobInput) => Promise<JobRecord>) {}

  @Mutation(() => Job, { description: 'Queues a graph analysis job: the full analysis of POST /v1/graph/{dataset_id}/full-analysis, whatever its time, with progress.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async submitGraphJob(@Ctx() ctx: RequestContext, @Args(() => GraphJobArgs) args: GraphJobArgs) {
    const { analysis, ...rest } = args;
    if (analysis != null && analysis !== 'full-analysis') throw new BadInput(`analysis: only full-analysis runs as a job (got ${JSON.stringify(analysis)})`);
    return jobOut(await this.submit(ctx, { ...rest }));
  }
}
