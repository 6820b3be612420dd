import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../../lib/access.js';
import type { RequestContext } from '../../../lib/context.js';
import type { MetaAnalysisService } from './meta-analysis.service.js';
import { MetaAnalysisArgs, MetaAnalysisResult } from './meta.types.js';

/** Meta-analysis of studies or of a metric across datasets (spec 4.3 Meta-analysis): Academic. */
@Resolver()
export class MetaAnalysisResolver {
  constructor(private readonly service: MetaAnalysisService) {}

  @Query(() => MetaAnalysisResult, { description: 'Random-effects meta-analysis (REML, DL, PM, ML, HE; or FE) with Knapp-Hartung, prediction interval and heterogeneity; format svg draws the forest plot (docs/meta-analysis.md).' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async metaAnalysis(@Ctx() ctx: RequestContext, @Args(() => MetaAnalysisArgs) args: MetaAnalysisArgs) {
    return this.service.analyse(ctx, args) as Promise<MetaAnalysisResult>;
  }
}
