/** Summary statistics of one measure over a set of neurons. All null (and n 0) for an empty set. */
export interface Distribution {
  n: number;
  mean: number | null;
  /** Sample standard deviation (divides by n − 1); null for fewer than two values. */
  sd: number | null;
  min: number | null;
  q1: number | null;
  median: number | null;
  q3: number | null;
  max: number | null;
}

/**
 * The distribution of `values` (NaN and infinities are the caller's to remove). Quartiles use Hyndman and Fan's
 * type 7, the default of numpy's percentile and R's quantile: the p-quantile of the sorted x[0..n-1] interpolates
 * linearly at position h = (n − 1)·p, x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 */
export function distribution(values: readonly number[]): Distribution {
  const n = values.length;
  if (n === 0) return { n: 0, mean: null, sd: null, min: null, q1: null, median: null, q3: null, max: null };
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of sorted) squares += (v - mean) * (v - mean);
  const quantile = (p: number) => {
    const h = (n - 1) * p;
    const lo = Math.floor(h);
    return lo + 1 < n ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
  };
  return {
    n,
    mean,
    sd: n > 1 ? Math.sqrt(squares / (n - 1)) : null,
    min: sorted[0],
    q1: quantile(0.25),
    median: quantile(0.5),
    q3: quantile(0.75),
    max: sorted[n - 1],
  };
}
