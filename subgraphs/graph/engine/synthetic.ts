import { ArcSet } from './arc-set.js';
import type { GraphSource } from './graph.js';
import { createRng, randomUnit } from './rng.js';

/**
 * A random connectome-like source for benchmarks: heavy-tailed (lognormal) out- and in-propensities, most targets
 * chosen within the source's block of nearby indices (so that triangles are common, as in real circuits), about
 * 10% of arcs reciprocated, a few autapses, one electrical pair per ~25 arcs, and skewed weights 1..50.
 */
export function syntheticConnectome(n: number, arcs: number, seed: number): GraphSource {
  const rng = createRng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(randomUnit(rng))) * Math.cos(2 * Math.PI * randomUnit(rng));
  const outCum = cumulative(n, () => Math.exp(1.2 * normal()));
  const inCum = cumulative(n, () => Math.exp(1.2 * normal()));
  const block = Math.min(n, 1000);
  const draw = (cum: Float64Array, lo: number, hi: number) => {
    const base = lo === 0 ? 0 : cum[lo - 1];
    const x = base + randomUnit(rng) * (cum[hi - 1] - base);
    let a = lo;
    let b = hi - 1;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (cum[mid] < x) a = mid + 1;
      else b = mid;
    }
    return a;
  };
  const weight = () => Math.min(50, Math.ceil(Math.exp(1.3 * Math.abs(normal()))));
  const maxArcs = Math.min(arcs, n * n);
  const pre = new Int32Array(maxArcs);
  const post = new Int32Array(maxArcs);
  const w = new Float64Array(maxArcs);
  const seen = new ArcSet(maxArcs);
  let count = 0;
  const add = (a: number, b: number) => {
    if (count >= maxArcs || !seen.add(a, b)) return false;
    pre[count] = a;
    post[count] = b;
    w[count++] = weight();
    return true;
  };
  const loops = Math.min(Math.floor(n / 200), maxArcs);
  for (let i = 0; i < loops; i++) {
    const v = draw(outCum, 0, n);
    add(v, v);
  }
  let misses = 0;
  while (count < maxArcs && misses < 100 * maxArcs) {
    const a = draw(outCum, 0, n);
    const lo = Math.min(n - block, Math.max(0, a - (block >> 1)));
    const b = randomUnit(rng) < 0.6 ? draw(inCum, lo, lo + block) : draw(inCum, 0, n);
    if (a === b || !add(a, b)) {
      misses++;
      continue;
    }
    if (randomUnit(rng) < 0.1) add(b, a);
  }
  const pairs = Math.floor(maxArcs / 25);
  const elecA = new Int32Array(pairs);
  const elecB = new Int32Array(pairs);
  const elecW = new Float64Array(pairs);
  const linked = new ArcSet(pairs);
  let made = 0;
  for (let tries = 0; made < pairs && tries < 100 * pairs; tries++) {
    const a = draw(outCum, 0, n);
    const lo = Math.min(n - block, Math.max(0, a - (block >> 1)));
    const b = draw(inCum, lo, lo + block);
    if (a === b || !linked.add(Math.min(a, b), Math.max(a, b))) continue;
    elecA[made] = Math.min(a, b);
    elecB[made] = Math.max(a, b);
    elecW[made++] = weight();
  }
  return {
    n,
    chemPre: pre.slice(0, count),
    chemPost: post.slice(0, count),
    chemWeight: w.slice(0, count),
    elecA: elecA.slice(0, made),
    elecB: elecB.slice(0, made),
    elecWeight: elecW.slice(0, made),
  };
}

function cumulative(n: number, draw: () => number): Float64Array {
  const cum = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cum[i] = sum += draw();
  return cum;
}
