import { BadInput } from '../../../lib/errors.js';
import type { AnalyticsStore, ClassField, Version } from '../store/analytics.store.js';
import { reciprocityOf } from './dataset-metrics.js';

/**
 * Metrics a meta-analysis over datasets pools: each is an estimate from one dataset version with its sampling
 * variance, the `yi` and `vi` of a study. docs/analytics.md gives the formulas; in short:
 * - reciprocity r = 2M / (2M + A) over the M mutual and A one-way dyads of the chemical graph (self-loops left
 *   out). The share of connected pairs that are mutual, q = M / (M + A), is a binomial proportion with variance
 *   q(1 - q) / (M + A); r = 2q / (1 + q), so by the delta method var(r) = (2 / (1 + q)^2)^2 q(1 - q) / (M + A).
 * - connection probability p from class a to class b: chemical arcs from a cell of a to another cell of b over the
 *   ordered pairs of distinct cells, n_a n_b (less n_a when a = b); binomial variance p(1 - p) / pairs.
 * - mean in-degree of a class: distinct chemical presynaptic partners (self-loops left out) averaged over the
 *   class's cells, zeros included; variance s^2 / n with the sample variance s^2.
 */

export const DATASET_EFFECT_METRICS = ['reciprocity', 'connection_probability', 'mean_in_degree'] as const;
export type DatasetEffectMetric = (typeof DATASET_EFFECT_METRICS)[number];

export interface DatasetEffectParams {
  /** cell_class (default) or cell_type: which neuron column the classes below name. */
  class_field?: string | null;
  pre_class?: string | null;
  post_class?: string | null;
  cell_class?: string | null;
}

export interface DatasetEffect {
  yi: number;
  vi: number;
  /** The counts the estimate is made of, shown with the study. */
  n: number;
  detail: string;
}

export function checkEffectMetric(metric: string | null | undefined, params: DatasetEffectParams): { metric: DatasetEffectMetric; field: ClassField } {
  if (!metric) throw new BadInput(`metric: required with datasets; one of ${DATASET_EFFECT_METRICS.join(', ')}`);
  if (!(DATASET_EFFECT_METRICS as readonly string[]).includes(metric)) throw new BadInput(`metric: unknown ${JSON.stringify(metric)}; one of ${DATASET_EFFECT_METRICS.join(', ')}`);
  const field = params.class_field ?? 'cell_class';
  if (field !== 'cell_class' && field !== 'cell_type') throw new BadInput('metric_params.class_field: cell_class or cell_type');
  if (metric === 'connection_probability' && (!params.pre_class || !params.post_class)) {
    throw new BadInput('metric_params: connection_probability needs pre_class and post_class (values of class_field)');
  }
  if (metric === 'mean_in_degree' && !params.cell_class) throw new BadInput('metric_params: mean_in_degree needs cell_class (a value of class_field)');
  return { metric: metric as DatasetEffectMetric, field };
}

/** The metric's estimate and variance for one version; BadInput naming the dataset when it cannot be estimated. */
export async function datasetEffect(store: AnalyticsStore, v: Version, label: string, metric: DatasetEffectMetric, field: ClassField, params: DatasetEffectParams): Promise<DatasetEffect> {
  switch (metric) {
    case 'reciprocity': {
      const { mutual, asymmetric } = await store.chemicalDyads(v);
      const r = reciprocityOf(mutual, asymmetric);
      if (r === null) throw new BadInput(`dataset ${label}: no chemical arcs between distinct cells, so no reciprocity`);
      const pairs = mutual + asymmetric;
      if (asymmetric === 0) throw new BadInput(`dataset ${label}: every connected pair is mutual (reciprocity 1), so its sampling variance is 0`);
      const q = mutual / pairs;
      const slope = 2 / (1 + q) ** 2;
      return { yi: r, vi: slope * slope * q * (1 - q) / pairs, n: pairs, detail: `${mutual} mutual and ${asymmetric} one-way dyads` };
    }
    case 'connection_probability': {
      const pre = params.pre_class!;
      const post = params.post_class!;
      const sizes = await store.classSizes(v, field, [pre, post]);
      const [na, nb] = [sizes.get(pre) ?? 0, sizes.get(post) ?? 0];
      if (!na || !nb) throw new BadInput(`dataset ${label}: no cell has ${field} ${JSON.stringify(!na ? pre : post)}`);
      const pairs = na * nb - (pre === post ? na : 0);
      if (pairs < 1) throw new BadInput(`dataset ${label}: ${field} ${JSON.stringify(pre)} has one cell, so no pair of distinct cells`);
      const arcs = await store.arcsBetween(v, field, pre, post);
      if (arcs === 0 || arcs === pairs) {
        throw new BadInput(`dataset ${label}: ${arcs} of ${pairs} ordered pairs from ${JSON.stringify(pre)} to ${JSON.stringify(post)} are connected; a probability of ${arcs ? 1 : 0} has no sampling variance (choose classes with some but not all pairs connected in every dataset)`);
      }
      const p = arcs / pairs;
      return { yi: p, vi: (p * (1 - p)) / pairs, n: pairs, detail: `${arcs} of ${pairs} ordered pairs connected` };
    }
    case 'mean_in_degree': {
      const cls = params.cell_class!;
      const n = (await store.classSizes(v, field, [cls])).get(cls) ?? 0;
      if (n < 2) throw new BadInput(`dataset ${label}: ${n} cell${n === 1 ? '' : 's'} with ${field} ${JSON.stringify(cls)}; a mean's variance needs at least 2`);
      const degrees = await store.inDegrees(v, field, cls);
      let sum = 0;
      let sq = 0;
      for (const d of degrees) {
        sum += d;
        sq += d * d;
      }
      const mean = sum / n;
      // Cells without an input have degree 0 and are not listed; sq already counts them as zeros.
      const variance = (sq - n * mean * mean) / (n - 1);
      if (!(variance > 0)) throw new BadInput(`dataset ${label}: the ${n} cells with ${field} ${JSON.stringify(cls)} all have in-degree ${mean}, so the mean's sampling variance is 0`);
      return { yi: mean, vi: variance / n, n, detail: `${n} cells, ${degrees.length} with inputs` };
    }
  }
}
