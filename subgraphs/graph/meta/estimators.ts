/**
 * Between-study variance (tau²) estimators of the random-effects model yi = mu + u_i + e_i, u_i ~ N(0, tau²),
 * e_i ~ N(0, vi), following metafor's rma.uni() for an intercept-only model step by step, so the same data give the
 * same numbers: the same starting values, the same Fisher-scoring steps and step halving, the same truncation at 0
 * and the same standard errors of tau². metafor writes these with k × k matrices P = W − W 1 (1'W1)⁻¹ 1'W; with one
 * intercept every trace and quadratic form of P reduces to weighted sums, which is what is computed here.
 */
import { BadInput } from '../../../lib/errors.js';
import type { Method } from './meta.model.js';

/**
 * Fisher scoring stops when tau² changes by less than this (absolute). metafor's default `threshold` is 1e-5;
 * the reference values are computed with metafor at this tighter value.
 */
export const FISHER_THRESHOLD = 1e-12;
export const MAX_ITERATIONS = 1000;
/** metafor resets an ML/REML estimate to 0 when the likelihood at 0 is higher by more than this. */
export const LL0_TOLERANCE = 1e-10;

export interface Tau2Estimate {
  tau2: number;
  /** metafor's se.tau2; null for FE. */
  se: number | null;
  iterations: number;
}

/** Sums over studies of the weights and the quadratic forms of P that the estimators use. */
interface WeightedSums {
  /** Σw */
  s1: number;
  /** Σw² */
  s2: number;
  /** Σw³ */
  s3: number;
  /** Σw (y − ȳ_w)² = y'Py (the Q statistic at these weights) */
  rss: number;
  /** Σw² (y − ȳ_w)² = y'PPy */
  rss2: number;
  /** tr(P) = Σw − Σw²/Σw */
  trP: number;
  /** tr(PP) = Σ_ij P_ij² */
  trPP: number;
}

export function weightedSums(yi: readonly number[], w: readonly number[]): WeightedSums {
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let sy = 0;
  for (let i = 0; i < w.length; i++) {
    s1 += w[i]!;
    s2 += w[i]! ** 2;
    s3 += w[i]! ** 3;
    sy += w[i]! * yi[i]!;
  }
  const mean = sy / s1;
  let rss = 0;
  let rss2 = 0;
  for (let i = 0; i < w.length; i++) {
    const r = yi[i]! - mean;
    rss += w[i]! * r * r;
    rss2 += w[i]! ** 2 * r * r;
  }
  return { s1, s2, s3, rss, rss2, trP: s1 - s2 / s1, trPP: s2 - (2 * s3) / s1 + (s2 * s2) / (s1 * s1) };
}

const weightsAt = (vi: readonly number[], tau2: number) => vi.map((v) => 1 / (v + tau2));

/** Hedges (1983) / Hedges–Olkin unweighted method of moments. */
function hedges(yi: readonly number[], vi: readonly number[]): Tau2Estimate {
  const k = yi.length;
  const mean = yi.reduce((a, b) => a + b, 0) / k;
  const rss = yi.reduce((a, y) => a + (y - mean) ** 2, 0);
  const sumV = vi.reduce((a, b) => a + b, 0);
  const sumV2 = vi.reduce((a, v) => a + v * v, 0);
  const trPV = sumV - sumV / k;
  // tr(PVPV) with P = I − J/k: Σv²(1 − 2/k) + (Σv)²/k²
  const trPVPV = sumV2 * (1 - 2 / k) + (sumV * sumV) / (k * k);
  const tau2 = Math.max(0, (rss - trPV) / (k - 1));
  const se = Math.sqrt((2 * trPVPV + 4 * tau2 * trPV + 2 * tau2 * tau2 * (k - 1)) / (k - 1) ** 2);
  return { tau2, se, iterations: 0 };
}

/** The untruncated Hedges estimate: metafor's starting value for ML and REML (then clamped at 0). */
function hedgesRaw(yi: readonly number[], vi: readonly number[]): number {
  const k = yi.length;
  const mean = yi.reduce((a, b) => a + b, 0) / k;
  const rss = yi.reduce((a, y) => a + (y - mean) ** 2, 0);
  const sumV = vi.reduce((a, b) => a + b, 0);
  return (rss - (sumV - sumV / k)) / (k - 1);
}

/** DerSimonian–Laird method of moments with inverse-variance weights. */
function derSimonianLaird(yi: readonly number[], vi: readonly number[]): Tau2Estimate {
  const k = yi.length;
  const s = weightedSums(yi, weightsAt(vi, 0));
  const tau2 = Math.max(0, (s.rss - (k - 1)) / s.trP);
  const se = Math.sqrt((2 * (k - 1) + 4 * tau2 * s.trP + 2 * tau2 * tau2 * s.trPP) / s.trP ** 2);
  return { tau2, se, iterations: 0 };
}

/**
 * Paule–Mandel: the tau² at which the generalised Q statistic equals its expectation k − 1. Q(tau²) decreases
 * monotonically, so the root is bracketed and found by bisection to full double precision. metafor stops with an
 * error when the root lies above `tau2.max` (100 by default); here the bracket is widened instead.
 */
function pauleMandel(yi: readonly number[], vi: readonly number[]): Tau2Estimate {
  const k = yi.length;
  const target = k - 1;
  const q = (tau2: number) => weightedSums(yi, weightsAt(vi, tau2)).rss;
  let tau2 = 0;
  let iterations = 0;
  if (q(0) >= target) {
    let lo = 0;
    let hi = 1;
    for (; q(hi) > target && hi < 1e300; iterations++) [lo, hi] = [hi, hi * 2];
    for (; iterations < 4 * MAX_ITERATIONS; iterations++) {
      const mid = lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) break;
      if (q(mid) > target) lo = mid;
      else hi = mid;
    }
    tau2 = lo + (hi - lo) / 2;
  }
  const w = weightsAt(vi, tau2);
  const s1 = w.reduce((a, b) => a + b, 0);
  return { tau2, se: Math.sqrt((2 * k * k) / (k - 1) / (s1 * s1)), iterations };
}

/** Log-likelihood up to a constant that does not depend on tau² (ML) or the restricted one (REML). */
function logLikelihood(yi: readonly number[], vi: readonly number[], tau2: number, restricted: boolean): number {
  const w = weightsAt(vi, tau2);
  const s = weightedSums(yi, w);
  const logDet = vi.reduce((a, v) => a + Math.log(v + tau2), 0);
  return -0.5 * logDet - 0.5 * s.rss - (restricted ? 0.5 * Math.log(s.s1) : 0);
}

/** ML or REML by Fisher scoring from the Hedges estimate, with metafor's step halving at the zero boundary. */
function fisherScoring(yi: readonly number[], vi: readonly number[], restricted: boolean, method: Method): Tau2Estimate {
  let tau2 = Math.max(0, hedgesRaw(yi, vi));
  let change = Infinity;
  let iterations = 0;
  while (change > FISHER_THRESHOLD) {
    if (iterations >= MAX_ITERATIONS) {
      throw new BadInput(`the ${method} estimate of tau2 did not converge in ${MAX_ITERATIONS} Fisher-scoring iterations; try method "PM" or "DL"`, { field: 'method' });
    }
    iterations++;
    const s = weightedSums(yi, weightsAt(vi, tau2));
    let adj = restricted ? (s.rss2 - s.trP) / s.trPP : (s.rss2 - s.s1) / s.s2;
    if (!Number.isFinite(adj)) adj = 0;
    // Halving (rather than clamping) is metafor's rule; at tau² = 0 it shrinks a negative step to -0.
    while (tau2 + adj < 0) adj /= 2;
    const next = tau2 + adj;
    change = Math.abs(next - tau2);
    tau2 = next;
  }
  if (tau2 > FISHER_THRESHOLD && logLikelihood(yi, vi, 0, restricted) - logLikelihood(yi, vi, tau2, restricted) > LL0_TOLERANCE) tau2 = 0;
  tau2 = Math.max(0, tau2);
  const s = weightedSums(yi, weightsAt(vi, tau2));
  const se = restricted ? Math.sqrt(2 / s.trPP) : Math.sqrt(2 / s.s2);
  return { tau2, se, iterations };
}

/** tau² by the chosen method; FE fixes it at 0. */
export function estimateTau2(method: Method, yi: readonly number[], vi: readonly number[]): Tau2Estimate {
  switch (method) {
    case 'FE':
      return { tau2: 0, se: null, iterations: 0 };
    case 'HE':
      return hedges(yi, vi);
    case 'DL':
      return derSimonianLaird(yi, vi);
    case 'PM':
      return pauleMandel(yi, vi);
    case 'ML':
      return fisherScoring(yi, vi, false, method);
    case 'REML':
      return fisherScoring(yi, vi, true, method);
  }
}
