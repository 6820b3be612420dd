/**
 * The few distribution functions a meta-analysis needs, accurate to about 1e-14 relative: log-gamma, the normal,
 * Student t and chi-square tails, and the normal and t quantiles. Tails are computed directly (never as 1 − cdf), so
 * small p-values keep their relative accuracy.
 */

// Lanczos approximation, g = 7, n = 9: about 15 significant digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITER = 10_000;

/** Regularized lower incomplete gamma P(a, x) by its series; converges fast for x < a + 1. */
function gammaSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < MAX_ITER; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction; for x ≥ a + 1. */
function gammaFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** Q(a, x) = 1 − P(a, x), the upper tail of a gamma(a, 1) variable. */
export function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x === Infinity) return 0;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaFraction(a, x);
}

/** Continued fraction of the regularized incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  // The fraction converges quickly only on this side of the mean; use the symmetry I_x(a,b) = 1 − I_{1−x}(b,a).
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(Z > z) for a standard normal Z. */
export function normalUpper(z: number): number {
  if (Number.isNaN(z)) return NaN;
  const tail = 0.5 * upperGamma(0.5, (z * z) / 2);
  return z >= 0 ? tail : 1 - tail;
}

/** P(T > t) for Student's t with `df` degrees of freedom. */
export function studentUpper(t: number, df: number): number {
  if (Number.isNaN(t)) return NaN;
  if (!Number.isFinite(t)) return t > 0 ? 0 : 1;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? tail : 1 - tail;
}

/** P(X > x) for a chi-square X with `df` degrees of freedom. */
export function chiSquareUpper(x: number, df: number): number {
  return upperGamma(df / 2, x / 2);
}

const normalDensity = (z: number) => Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);

/**
 * The z with P(Z > z) = p. Acklam's rational approximation (about 1e-9) as the start, then Newton steps on the
 * accurate tail until they stop moving the value.
 */
export function normalQuantileUpper(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? Infinity : p === 1 ? -Infinity : NaN;
  const q = 1 - p; // lower-tail probability
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tailStart = (r: number) =>
    (((((c[0]! * r + c[1]!) * r + c[2]!) * r + c[3]!) * r + c[4]!) * r + c[5]!) / ((((d[0]! * r + d[1]!) * r + d[2]!) * r + d[3]!) * r + 1);
  let z: number;
  if (q < 0.02425) z = tailStart(Math.sqrt(-2 * Math.log(q)));
  else if (q > 1 - 0.02425) z = -tailStart(Math.sqrt(-2 * Math.log(p)));
  else {
    const u = q - 0.5;
    const r = u * u;
    z = ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * u) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  }
  for (let i = 0; i < 20; i++) {
    const step = (normalUpper(z) - p) / normalDensity(z);
    z += step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(z))) break;
  }
  return z;
}

/**
 * The t with P(T > t) = p, for p < 1/2 (a positive critical value). Bisection on the accurate tail: slower than a
 * series, but it cannot diverge in the heavy tails of small df, and a meta-analysis asks for a handful of values.
 */
export function studentQuantileUpper(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return NaN;
  if (p > 0.5) return -studentQuantileUpper(1 - p, df);
  let lo = 0;
  let hi = Math.max(1, normalQuantileUpper(p));
  while (studentUpper(hi, df) > p) [lo, hi] = [hi, hi * 2];
  for (let i = 0; i < 2000 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (studentUpper(mid, df) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
