import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../../lib/access.js';
import type { RequestContext } from '../../../lib/context.js';
import type { AnalyticsService } from './analytics.service.js';
import type { AtlasService } from './atlas.service.js';
import {
  AnalyticsComparisonResult,
  AnalyticsSummaryResult,
  AtlasCompareArgs,
  AtlasComparisonResult,
  ComparisonArgs,
  SummaryArgs,
  ZScoreArgs,
  ZScoreComparisonResult,
} from './analytics.types.js';

/** Dataset analytics that are not graph algorithms (spec 4.3 Analytics) and the atlas comparison of Meta-analysis: Academic. */
@Resolver()
export class AnalyticsResolver {
  constructor(
    private readonly analytics: AnalyticsService,
    private readonly atlas: AtlasService,
  ) {}

  @Query(() => AnalyticsSummaryResult, { description: 'The catalogue the caller may see, or one dataset version: cells by class, type, transmitter and region; connections and weights; morphologies.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async analyticsSummary(@Ctx() ctx: RequestContext, @Args(() => SummaryArgs) args: SummaryArgs) {
    return this.analytics.summary(ctx, args) as Promise<AnalyticsSummaryResult>;
  }

  @Query(() => AnalyticsComparisonResult, { description: 'Summary metrics of several datasets side by side, with differences from the first.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async analyticsComparison(@Ctx() ctx: RequestContext, @Args(() => ComparisonArgs) args: ComparisonArgs) {
    return this.analytics.comparison(ctx, args) as Promise<AnalyticsComparisonResult>;
  }

  @Query(() => ZScoreComparisonResult, { description: "A dataset's summary metrics as z-scores against reference datasets (mean and sample SD), flagging |z| > 2." })
  @Access(AccessClass.Academic, { token: 'compute' })
  async analyticsZScoreComparison(@Ctx() ctx: RequestContext, @Args(() => ZScoreArgs) args: ZScoreArgs) {
    return this.analytics.zscoreComparison(ctx, args) as Promise<ZScoreComparisonResult>;
  }

  @Query(() => AtlasComparisonResult, { description: 'Two datasets region by region through the brain-region hierarchy: cells and connections per region at a level, regions only one side has, standardized differences.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async atlasComparison(@Ctx() ctx: RequestContext, @Args(() => AtlasCompareArgs) args: AtlasCompareArgs) {
    return this.atlas.compare(ctx, args) as Promise<AtlasComparisonResult>;
  }
}
