/** Input and output shapes of the meta-analysis engine (docs/meta-analysis.md). */

/** `GEN`: effect sizes given directly (yi with vi or sei), pooled on the scale given. */
export type Measure = 'GEN' | 'logRR' | 'logOR' | 'RD' | 'MD' | 'SMD';
export const MEASURES: readonly Measure[] = ['GEN', 'logRR', 'logOR', 'RD', 'MD', 'SMD'];

/** Ratio measures are pooled on the log scale and reported back-transformed with exp as well. */
export const RATIO_MEASURES: ReadonlySet<Measure> = new Set(['logRR', 'logOR']);

export type Method = 'REML' | 'DL' | 'PM' | 'ML' | 'HE' | 'FE';
export const METHODS: readonly Method[] = ['REML', 'DL', 'PM', 'ML', 'HE', 'FE'];

/**
 * Sampling-variance formula (metafor's `vtype`): `LS` large-sample (default); `UB` unbiased (RD: p(1−p)/(n−1);
 * SMD: Hedges' exact variance; MD: same as LS); `HO` MD only, pooled SD under homoscedasticity.
 */
export type VarianceType = 'LS' | 'UB' | 'HO';

/** Where a zero-cell correction is added (metafor's `to`): `none` states that zero cells are accepted as they are. */
export type ZeroCellTarget = 'only0' | 'all' | 'if0all' | 'none';

export interface ZeroCellCorrection {
  /** Added to every cell of the affected 2×2 tables, e.g. 0.5. */
  add: number;
  to: ZeroCellTarget;
}

/**
 * One study. Exactly one kind of data per analysis, the same kind for every study:
 * - effect sizes: `yi` with `vi` or `sei`;
 * - 2×2 counts (logRR, logOR, RD): `ai`, `ci` events in groups 1 and 2 with either `bi`, `di` (non-events) or
 *   `n1i`, `n2i` (group sizes);
 * - two-group summaries (MD, SMD): `m1i`, `sd1i`, `n1i`, `m2i`, `sd2i`, `n2i`.
 */
export interface StudyInput {
  label: string;
  yi?: number;
  vi?: number;
  sei?: number;
  ai?: number;
  bi?: number;
  ci?: number;
  di?: number;
  n1i?: number;
  n2i?: number;
  m1i?: number;
  sd1i?: number;
  m2i?: number;
  sd2i?: number;
}

export interface MetaInput {
  studies: StudyInput[];
  /** Required for counts and summaries; defaults to `GEN` for effect sizes. */
  measure?: Measure;
  /** Default `REML`. */
  method?: Method;
  /** Knapp–Hartung t-based test and CI (metafor `test = "knha"`). Default false. */
  knapp_hartung?: boolean;
  /** Confidence level in percent, default 95. */
  level?: number;
  /** Default `LS`. */
  vtype?: VarianceType;
  /** Without it, a zero cell in a 2×2 table is rejected. */
  zero_cell?: ZeroCellCorrection;
}

/** yi and vi of one study, with the label it came with. */
export interface EffectSize {
  label: string;
  yi: number;
  vi: number;
}

export interface BackTransformed {
  /** exp of the log-scale values: a risk ratio or odds ratio. */
  scale: 'RR' | 'OR';
  estimate: number;
  ci_lower: number;
  ci_upper: number;
  pi_lower: number;
  pi_upper: number;
}

export interface StudyResult {
  label: string;
  yi: number;
  vi: number;
  sei: number;
  /** Share of the total weight 1/(vi + tau2), in percent. */
  weight: number;
  ci_lower: number;
  ci_upper: number;
  /** exp(yi) and its CI for ratio measures. */
  back_transformed: { estimate: number; ci_lower: number; ci_upper: number } | null;
}

export interface MetaResult {
  method: Method;
  measure: Measure;
  vtype: VarianceType;
  knapp_hartung: boolean;
  level: number;
  k: number;
  estimate: number;
  se: number;
  statistic: number;
  statistic_kind: 'z' | 't';
  /** Degrees of freedom of the t statistic (k − 1), null for z. */
  statistic_df: number | null;
  p: number;
  ci_lower: number;
  ci_upper: number;
  pi_lower: number;
  pi_upper: number;
  tau2: number;
  tau: number;
  /** Standard error of tau2 as metafor reports it; null for FE. */
  tau2_se: number | null;
  I2: number;
  H2: number;
  Q: number;
  df: number;
  p_Q: number;
  /** Knapp–Hartung scale factor s² multiplying the variance of the estimate (1 without the adjustment). */
  kh_scale: number;
  back_transformed: BackTransformed | null;
  studies: StudyResult[];
  /** Fisher-scoring iterations (REML, ML) or root-search steps (PM); 0 for closed-form estimators. */
  iterations: number;
  /** Sentences stating the conventions used, so every number can be reproduced elsewhere. */
  convention: string[];
}
