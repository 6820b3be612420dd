/**
 * xoshiro128** (Blackman and Vigna) seeded by splitmix32 from a 32-bit seed: a small, fast generator whose stream
 * depends only on the seed, so a null model is reproducible. Returns uint32 values.
 */
export function createRng(seed: number): () => number {
  return resumableRng(seedState(seed)).next;
}

/** The generator's state: four uint32 words. */
export type RngState = [number, number, number, number];

/** A generator together with its current state, so that a run cut into pieces can go on where the last one stopped. */
export interface ResumableRng {
  next: () => number;
  state: () => RngState;
}

/** The generator resumed from `state` (`seedState` for a fresh one), exposing its state as it goes. */
export function resumableRng(state: RngState): ResumableRng {
  let [s0, s1, s2, s3] = state;
  const next = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };
  return { next, state: () => [s0, s1, s2, s3] };
}

/** The state `createRng(seed)` starts from. */
export function seedState(seed: number): RngState {
  let x = seed >>> 0;
  const splitmix32 = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let s0 = splitmix32();
  const s1 = splitmix32();
  const s2 = splitmix32();
  const s3 = splitmix32();
  // The all-zero state is the one state xoshiro cannot leave.
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  return [s0, s1, s2, s3];
}

const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));

/** A uniform integer in [0, bound) for 0 < bound <= 2^32, without modulo bias (rejection of the last partial range). */
export function randomBelow(rng: () => number, bound: number): number {
  const limit = 4294967296 - (4294967296 % bound);
  for (;;) {
    const x = rng();
    if (x < limit) return x % bound;
  }
}

/** A uniform double in (0, 1). */
export const randomUnit = (rng: () => number): number => (rng() + 0.5) / 4294967296;
