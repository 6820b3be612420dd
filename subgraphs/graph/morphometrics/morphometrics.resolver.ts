import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../../lib/access.js';
import type { RequestContext } from '../../../lib/context.js';
import type { MorphometricsService } from './morphometrics.service.js';
import { MorphometricsArgs, MorphometricsResult } from './morphometrics.types.js';

/** Neuron morphometrics from the stored SWC files (spec 4.3 Analytics): Academic. */
@Resolver()
export class MorphometricsResolver {
  constructor(private readonly service: MorphometricsService) {}

  @Query(() => MorphometricsResult, { description: "One neuron's morphometrics from its SWC files, or every morphology of a dataset with each measure's distribution (docs/morphometrics.md)." })
  @Access(AccessClass.Academic, { token: 'compute' })
  async analyticsMorphometrics(@Ctx() ctx: RequestContext, @Args(() => MorphometricsArgs) args: MorphometricsArgs) {
    return this.service.morphometrics(ctx, args) as Promise<MorphometricsResult>;
  }
}
