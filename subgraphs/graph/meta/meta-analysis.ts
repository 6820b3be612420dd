/**
 * Random-effects (and equal-effects) meta-analysis of one outcome, agreeing with R's metafor (rma.uni, predict,
 * weights) to 1e-6 relative on every reported number; see docs/meta-analysis.md and fixtures/.
 */
import { BadInput } from '../../../lib/errors.js';
import { chiSquareUpper, normalQuantileUpper, normalUpper, studentQuantileUpper, studentUpper } from './distributions.js';
import { computeEffectSizes } from './effect-sizes.js';
import { FISHER_THRESHOLD, estimateTau2, weightedSums } from './estimators.js';
import {
  METHODS,
  RATIO_MEASURES,
  type BackTransformed,
  type EffectSize,
  type Measure,
  type MetaInput,
  type MetaResult,
  type Method,
  type StudyResult,
  type VarianceType,
} from './meta.model.js';

/** metafor sets the Knapp–Hartung factor to 0 when the weighted residual sum of squares is at most this. */
const KH_ZERO = 2.220446049250313e-16;

const METHOD_NAMES: Record<Method, string> = {
  REML: 'restricted maximum likelihood (Fisher scoring)',
  ML: 'maximum likelihood (Fisher scoring)',
  PM: 'Paule-Mandel (root of the generalised Q statistic)',
  DL: 'DerSimonian-Laird',
  HE: 'Hedges (unweighted method of moments)',
  FE: 'equal-effects (fixed-effect) model, tau2 = 0',
};

const VARIANCE_NOTES: Record<Measure, Partial<Record<VarianceType, string>>> = {
  GEN: { LS: 'effect sizes as given; vi = sei^2 when sei is given' },
  logRR: { LS: 'logRR = log(ai/n1i) - log(ci/n2i), vi = 1/ai - 1/n1i + 1/ci - 1/n2i (metafor escalc "RR")' },
  logOR: { LS: 'logOR = log(ai di / (bi ci)), vi = 1/ai + 1/bi + 1/ci + 1/di (metafor escalc "OR")' },
  RD: {
    LS: 'RD = ai/n1i - ci/n2i, vi = p1(1-p1)/n1i + p2(1-p2)/n2i (metafor escalc "RD", vtype "LS")',
    UB: 'RD = ai/n1i - ci/n2i, vi = p1(1-p1)/(n1i-1) + p2(1-p2)/(n2i-1) (metafor escalc "RD", vtype "UB")',
  },
  MD: {
    LS: 'MD = m1i - m2i, vi = sd1i^2/n1i + sd2i^2/n2i (metafor escalc "MD", vtype "LS")',
    UB: 'MD = m1i - m2i, vi = sd1i^2/n1i + sd2i^2/n2i (metafor escalc "MD", vtype "UB" = "LS")',
    HO: 'MD = m1i - m2i, vi = sp^2 (1/n1i + 1/n2i), sp^2 the pooled variance (metafor escalc "MD", vtype "HO")',
  },
  SMD: {
    LS: "SMD = Hedges' g = c(m) (m1i - m2i)/sp, c(m) = exp(lgamma(m/2) - log(sqrt(m/2)) - lgamma((m-1)/2)), m = n1i + n2i - 2; vi = 1/n1i + 1/n2i + g^2/(2 (n1i + n2i)) (metafor escalc \"SMD\", vtype \"LS\")",
    UB: "SMD = Hedges' g as for LS; vi = 1/n1i + 1/n2i + (1 - (m-2)/(m c(m)^2)) g^2 (metafor escalc \"SMD\", vtype \"UB\")",
  },
};

function readOptions(input: MetaInput): { method: Method; knha: boolean; level: number } {
  const method = input.method ?? 'REML';
  if (!METHODS.includes(method)) throw new BadInput(`field "method" must be one of ${METHODS.join(', ')} (got ${JSON.stringify(method)})`, { field: 'method' });
  const knha = input.knapp_hartung ?? false;
  if (typeof knha !== 'boolean') throw new BadInput('field "knapp_hartung" must be true or false', { field: 'knapp_hartung' });
  const level = input.level ?? 95;
  if (typeof level !== 'number' || !(level > 1 && level < 100)) {
    throw new BadInput(`field "level" must be a confidence level in percent, between 1 and 100 exclusive (got ${JSON.stringify(level)}; 95 means 95 %)`, { field: 'level' });
  }
  return { method, knha, level };
}

function conventions(measure: Measure, vtype: VarianceType, method: Method, knha: boolean, hasCorrection: boolean): string[] {
  const out = [
    `effect size: ${VARIANCE_NOTES[measure][vtype] ?? VARIANCE_NOTES[measure].LS}`,
    `tau2: ${METHOD_NAMES[method]}${method === 'FE' ? '' : ', truncated at 0 as metafor does'}`,
  ];
  if (method === 'REML' || method === 'ML') {
    out.push(`convergence: Fisher scoring from the Hedges estimate until tau2 changes by < ${FISHER_THRESHOLD} (metafor default threshold 1e-5); metafor's step halving at 0 and its check of the likelihood at tau2 = 0`);
  }
  if (method === 'PM') out.push('convergence: bisection on Q(tau2) = k - 1 to full double precision (metafor: uniroot)');
  out.push(
    knha
      ? "test: Knapp-Hartung (metafor test = \"knha\"): var(estimate) scaled by s2 = sum w (y - estimate)^2 / (k - 1), not truncated at 1; t statistic, CI and PI with k - 1 df"
      : 'test: z statistic, normal-theory CI and PI',
    'prediction interval: estimate -/+ crit * sqrt(se^2 + tau2) (metafor predict())',
    'heterogeneity: Q with inverse-variance weights 1/vi, df = k - 1; I2 = 100 tau2/(tau2 + s2), H2 = tau2/s2 + 1 with the typical within-study variance s2 = (k - 1)/(sum w - sum w^2/sum w) (Higgins-Thompson); for FE, I2 = max(0, 100 (Q - df)/Q) and H2 = Q/df',
    'tau2_se: metafor se.tau2 for the chosen estimator',
    'weights: 100 (1/(vi + tau2)) / sum(1/(vi + tau2)), in percent; study CI: yi -/+ z * sqrt(vi) at the same level',
  );
  if (RATIO_MEASURES.has(measure)) out.push('back-transformation: exp of estimate, CI and PI bounds and of study values (risk or odds ratio)');
  if (hasCorrection) out.push('zero cells: the stated correction was added with metafor escalc semantics of "to"');
  return out;
}

/**
 * Pools the studies of `input`. Throws BadInput for invalid input (naming the study and field) and when an
 * iterative estimator does not converge.
 */
export function metaAnalyse(input: MetaInput): MetaResult {
  if (typeof input !== 'object' || input === null) throw new BadInput('the meta-analysis input must be an object', { field: 'studies' });
  const { method, knha, level } = readOptions(input);
  const { measure, vtype, effects } = computeEffectSizes(input);
  return poolEffects(effects, { measure, vtype, method, knha, level, hasCorrection: input.zero_cell !== undefined });
}

interface PoolOptions {
  measure: Measure;
  vtype: VarianceType;
  method: Method;
  knha: boolean;
  level: number;
  hasCorrection?: boolean;
}

/** The pooled analysis of already computed effect sizes (validated by computeEffectSizes). */
export function poolEffects(effects: readonly EffectSize[], o: PoolOptions): MetaResult {
  const k = effects.length;
  const yi = effects.map((e) => e.yi);
  const vi = effects.map((e) => e.vi);
  const df = k - 1;
  const alpha = 1 - o.level / 100;

  const { tau2, se: tau2Se, iterations } = estimateTau2(o.method, yi, vi);
  const w = vi.map((v) => 1 / (v + tau2));
  const pooled = weightedSums(yi, w);
  const estimate = w.reduce((a, wi, i) => a + wi * yi[i]!, 0) / pooled.s1;

  let khScale = 1;
  if (o.knha) {
    const rss = w.reduce((a, wi, i) => a + wi * (yi[i]! - estimate) ** 2, 0);
    khScale = rss <= KH_ZERO ? 0 : rss / df;
  }
  const variance = khScale / pooled.s1;
  const se = Math.sqrt(variance);
  const statistic = estimate / se;
  const crit = o.knha ? studentQuantileUpper(alpha / 2, df) : normalQuantileUpper(alpha / 2);
  const p = 2 * (o.knha ? studentUpper(Math.abs(statistic), df) : normalUpper(Math.abs(statistic)));
  const piHalf = crit * Math.sqrt(variance + tau2);

  const fixed = weightedSums(yi, vi.map((v) => 1 / v));
  const Q = Math.max(0, fixed.rss);
  const typicalVariance = df / fixed.trP;
  const I2 = o.method === 'FE' ? Math.max(0, (100 * (Q - df)) / Q) : (100 * tau2) / (typicalVariance + tau2);
  const H2 = o.method === 'FE' ? Q / df : tau2 / typicalVariance + 1;

  const isRatio = RATIO_MEASURES.has(o.measure);
  const zStudy = normalQuantileUpper(alpha / 2);
  const studies: StudyResult[] = effects.map((e, i) => {
    const sei = Math.sqrt(e.vi);
    const lo = e.yi - zStudy * sei;
    const hi = e.yi + zStudy * sei;
    return {
      label: e.label,
      yi: e.yi,
      vi: e.vi,
      sei,
      weight: (100 * w[i]!) / pooled.s1,
      ci_lower: lo,
      ci_upper: hi,
      back_transformed: isRatio ? { estimate: Math.exp(e.yi), ci_lower: Math.exp(lo), ci_upper: Math.exp(hi) } : null,
    };
  });

  const result = {
    estimate,
    ci_lower: estimate - crit * se,
    ci_upper: estimate + crit * se,
    pi_lower: estimate - piHalf,
    pi_upper: estimate + piHalf,
  };
  const backTransformed: BackTransformed | null = isRatio
    ? {
        scale: o.measure === 'logRR' ? 'RR' : 'OR',
        estimate: Math.exp(result.estimate),
        ci_lower: Math.exp(result.ci_lower),
        ci_upper: Math.exp(result.ci_upper),
        pi_lower: Math.exp(result.pi_lower),
        pi_upper: Math.exp(result.pi_upper),
      }
    : null;

  return {
    method: o.method,
    measure: o.measure,
    vtype: o.vtype,
    knapp_hartung: o.knha,
    level: o.level,
    k,
    ...result,
    se,
    statistic,
    statistic_kind: o.knha ? 't' : 'z',
    statistic_df: o.knha ? df : null,
    p,
    tau2,
    tau: Math.sqrt(tau2),
    tau2_se: tau2Se,
    I2,
    H2,
    Q,
    df,
    p_Q: chiSquareUpper(Q, df),
    kh_scale: khScale,
    back_transformed: backTransformed,
    studies,
    iterations,
    convention: conventions(o.measure, o.vtype, o.method, o.knha, Boolean(o.hasCorrection)),
  };
}
