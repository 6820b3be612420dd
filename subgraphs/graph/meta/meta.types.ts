import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { AnalyticsDataset } from '../analytics/analytics.types.js';

@InputType({ description: 'One study: yi with vi or sei; or 2x2 counts ai, bi, ci, di (or ai, ci with n1i, n2i); or m1i, sd1i, n1i, m2i, sd2i, n2i. Every study of an analysis gives the same kind.' })
export class MetaStudyInput {
  @Field(() => String, { description: 'the name shown for the study (1 to 200 characters)' })
  label!: string;

  @Field(() => Float, { nullable: true, description: 'effect size' })
  yi?: number | null;

  @Field(() => Float, { nullable: true, description: 'sampling variance of yi' })
  vi?: number | null;

  @Field(() => Float, { nullable: true, description: 'standard error of yi (instead of vi)' })
  sei?: number | null;

  @Field(() => Float, { nullable: true, description: 'events in group 1' })
  ai?: number | null;

  @Field(() => Float, { nullable: true, description: 'non-events in group 1' })
  bi?: number | null;

  @Field(() => Float, { nullable: true, description: 'events in group 2' })
  ci?: number | null;

  @Field(() => Float, { nullable: true, description: 'non-events in group 2' })
  di?: number | null;

  @Field(() => Float, { nullable: true, description: 'size of group 1' })
  n1i?: number | null;

  @Field(() => Float, { nullable: true, description: 'size of group 2' })
  n2i?: number | null;

  @Field(() => Float, { nullable: true, description: 'mean of group 1' })
  m1i?: number | null;

  @Field(() => Float, { nullable: true, description: 'standard deviation of group 1' })
  sd1i?: number | null;

  @Field(() => Float, { nullable: true, description: 'mean of group 2' })
  m2i?: number | null;

  @Field(() => Float, { nullable: true, description: 'standard deviation of group 2' })
  sd2i?: number | null;
}

@InputType({ description: "A correction added to 2x2 tables with zero cells (metafor's add and to)." })
export class ZeroCellInput {
  @Field(() => Float, { description: 'added to every cell of an affected table, e.g. 0.5' })
  add!: number;

  @Field(() => String, { description: 'only0 (tables with a zero), all (every table), if0all (every table when any has a zero), none (keep zeros as they are)' })
  to!: string;
}

@InputType({ description: 'Parameters of a dataset metric (docs/meta-analysis.md, Datasets).' })
export class MetricParamsInput {
  @Field(() => String, { nullable: true, description: 'cell_class (default) or cell_type: which neuron column the classes name' })
  class_field?: string | null;

  @Field(() => String, { nullable: true, description: 'connection_probability: the presynaptic class' })
  pre_class?: string | null;

  @Field(() => String, { nullable: true, description: 'connection_probability: the postsynaptic class' })
  post_class?: string | null;

  @Field(() => String, { nullable: true, description: 'mean_in_degree: the class' })
  cell_class?: string | null;
}

@ArgsType()
export class MetaAnalysisArgs {
  @Field(() => [MetaStudyInput], { nullable: true, description: 'the studies (2 to 10,000); or give datasets and metric' })
  studies?: MetaStudyInput[] | null;

  @Field(() => [String], { nullable: true, description: 'datasets (id or slug, optionally @vN), 2 to 50: each is a study of metric' })
  datasets?: string[] | null;

  @Field(() => String, { nullable: true, description: 'with datasets: reciprocity, connection_probability or mean_in_degree' })
  metric?: string | null;

  @Field(() => MetricParamsInput, { nullable: true })
  metric_params?: MetricParamsInput | null;

  @Field(() => String, { nullable: true, description: 'GEN (yi given; the default for effect sizes), logRR, logOR, RD (2x2 counts), MD, SMD (group summaries; SMD is Hedges\' g)' })
  measure?: string | null;

  @Field(() => String, { nullable: true, description: 'tau2 estimator: REML (default), DL, PM, ML, HE, or FE (equal effects)' })
  method?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Knapp-Hartung adjustment: t-based test and intervals (default false)' })
  knapp_hartung?: boolean | null;

  @Field(() => Float, { nullable: true, description: 'confidence level in percent (default 95)' })
  level?: number | null;

  @Field(() => String, { nullable: true, description: 'variance formula: LS (default), UB (RD, SMD), HO (MD with pooled SD)' })
  vtype?: string | null;

  @Field(() => ZeroCellInput, { nullable: true, description: 'without it, a zero cell in a 2x2 table is refused' })
  zero_cell?: ZeroCellInput | null;

  @Field(() => String, { nullable: true, description: "the forest plot's title" })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'svg: the forest plot instead of the numbers' })
  format?: string | null;
}

@ObjectType({ description: 'exp of a value on the log scale, with its interval.' })
export class BackTransformedStudy {
  @Field(() => Float)
  estimate!: number;

  @Field(() => Float)
  ci_lower!: number;

  @Field(() => Float)
  ci_upper!: number;
}

@ObjectType({ description: 'The pooled estimate back-transformed (exp) for ratio measures.' })
export class BackTransformedPooled {
  @Field(() => String, { description: 'RR or OR' })
  scale!: string;

  @Field(() => Float)
  estimate!: number;

  @Field(() => Float)
  ci_lower!: number;

  @Field(() => Float)
  ci_upper!: number;

  @Field(() => Float)
  pi_lower!: number;

  @Field(() => Float)
  pi_upper!: number;
}

@ObjectType({ description: 'One study as pooled: effect, variance, weight and normal-theory CI.' })
export class MetaStudyResult {
  @Field(() => String)
  label!: string;

  @Field(() => Float)
  yi!: number;

  @Field(() => Float)
  vi!: number;

  @Field(() => Float)
  sei!: number;

  @Field(() => Float, { description: 'share of the total weight 1 / (vi + tau2), in percent' })
  weight!: number;

  @Field(() => Float)
  ci_lower!: number;

  @Field(() => Float)
  ci_upper!: number;

  @Field(() => BackTransformedStudy, { nullable: true })
  back_transformed!: BackTransformedStudy | null;

  @Field(() => AnalyticsDataset, { nullable: true, description: 'with datasets: the dataset version the study is' })
  dataset!: AnalyticsDataset | null;

  @Field(() => Int, { nullable: true, description: 'with datasets: the count the estimate is made of (dyads, pairs or cells)' })
  n!: number | null;

  @Field(() => String, { nullable: true })
  detail!: string | null;
}

@ObjectType({ description: 'A random-effects (or equal-effects) meta-analysis, numbers as metafor reports them.' })
export class MetaAnalysisResult {
  @Field(() => String)
  method!: string;

  @Field(() => String)
  measure!: string;

  @Field(() => String, { nullable: true, description: 'with datasets: the metric pooled' })
  metric!: string | null;

  @Field(() => String)
  vtype!: string;

  @Field(() => Boolean)
  knapp_hartung!: boolean;

  @Field(() => Float)
  level!: number;

  @Field(() => Int)
  k!: number;

  @Field(() => Float)
  estimate!: number;

  @Field(() => Float)
  se!: number;

  @Field(() => Float, { description: 'z, or t with Knapp-Hartung' })
  statistic!: number;

  @Field(() => String, { description: 'z or t' })
  statistic_kind!: string;

  @Field(() => Int, { nullable: true, description: 'degrees of freedom of t (k - 1); null for z' })
  statistic_df!: number | null;

  @Field(() => Float)
  p!: number;

  @Field(() => Float)
  ci_lower!: number;

  @Field(() => Float)
  ci_upper!: number;

  @Field(() => Float)
  pi_lower!: number;

  @Field(() => Float)
  pi_upper!: number;

  @Field(() => Float, { description: 'between-study variance, never negative' })
  tau2!: number;

  @Field(() => Float)
  tau!: number;

  @Field(() => Float, { nullable: true, description: 'standard error of tau2 as metafor reports it; null for FE' })
  tau2_se!: number | null;

  @Field(() => Float, { description: 'percent' })
  I2!: number;

  @Field(() => Float)
  H2!: number;

  @Field(() => Float)
  Q!: number;

  @Field(() => Int)
  df!: number;

  @Field(() => Float)
  p_Q!: number;

  @Field(() => Float, { description: 'Knapp-Hartung factor s2 (1 without the adjustment)' })
  kh_scale!: number;

  @Field(() => BackTransformedPooled, { nullable: true })
  back_transformed!: BackTransformedPooled | null;

  @Field(() => [MetaStudyResult])
  studies!: MetaStudyResult[];

  @Field(() => Int, { description: 'iterations of REML, ML (Fisher scoring) or PM; 0 for closed forms' })
  iterations!: number;

  @Field(() => [String], { description: 'the conventions used, to reproduce every number elsewhere' })
  convention!: string[];

  @Field(() => String, { nullable: true, description: 'the forest plot (format svg)' })
  svg!: string | null;
}
