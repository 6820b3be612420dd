import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { SyqlService } from './syql.service.js';
import { SyqlArgs, SyqlCancelArgs, SyqlCancelResult, SyqlExecArgs, SyqlExecResult, SyqlExplainResult, SyqlPlanResult } from './syql.types.js';

/** SyQL: plan, explain, exec and cancel (spec 4.3 SyQL; docs/syql.md). Academic. */
@Resolver()
export class SyqlResolver {
  constructor(private readonly service: SyqlService) {}

  @Query(() => SyqlPlanResult, { description: 'Parses and checks a SyQL query: its canonical text, the dataset versions it reads and its result columns.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async syqlPlan(@Ctx() ctx: RequestContext, @Args(() => SyqlArgs) args: SyqlArgs) {
    return this.service.describe(await this.service.plan(ctx, args));
  }

  @Query(() => SyqlExplainResult, { description: 'The ClickHouse SQL a query compiles to (every value a bound parameter) and the engine plan.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async syqlExplain(@Ctx() ctx: RequestContext, @Args(() => SyqlArgs) args: SyqlArgs) {
    return this.service.explain(ctx, args);
  }

  @Mutation(() => SyqlExecResult, { description: 'Runs a query within the request: rows, the true total and whether rows were cut at max_rows.' })
  @Access(AccessClass.Academic, { token: 'compute', remoteCallers: true })
  async syqlExec(@Ctx() ctx: RequestContext, @Args(() => SyqlExecArgs) args: SyqlExecArgs) {
    return this.service.exec(ctx, args);
  }

  @Mutation(() => SyqlCancelResult, { description: 'Stops a running query by its query_id (its owner or a SuperUser); the waiting exec answers 409.' })
  @Access(AccessClass.Academic, { token: 'compute', remoteCallers: true })
  async syqlCancel(@Ctx() ctx: RequestContext, @Args(() => SyqlCancelArgs) args: SyqlCancelArgs) {
    return this.service.cancel(ctx, args);
  }
}
