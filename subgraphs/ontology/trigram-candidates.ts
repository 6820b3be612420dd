/**
 * The candidates of suggestions, chosen as PostgreSQL's pg_trgm would choose them but without its index walk.
 *
 * A suggestion lookup ranks the names nearest to a value by trigram distance (`norm <-> value`, 1 - similarity).
 * On the embedded engine that walk costs about 2 ms per value, because trigram signatures prune little among short
 * names; here the same similarity is counted from an inverted index of the names' trigrams, and the names that can
 * be among the nearest are given their distance and word similarity exactly as pg_trgm computes them, to be ranked
 * as the walk's SQL ranks them (suggestion-ranking.ts).
 *
 * pg_trgm's trigrams of a string: the string is split into words (runs of letters and digits), each word is
 * lower-cased and padded with two spaces in front and one behind, and every three consecutive characters of a
 * padded word are a trigram; similarity is shared / (trigrams of a + trigrams of b - shared), over distinct
 * trigrams, as a float4. For ASCII that is all there is. Other characters take locale-dependent rules and hashed
 * trigrams that are not reproduced here, so names with them are always passed on, to be measured by PostgreSQL,
 * and values with them are left to the index walk. test/suggestion-candidates.test.ts holds both to pg_trgm.
 *
 * Imports nothing: it runs on the worker pool (term-suggest.task.ts).
 */

/** Room for the trigrams of one string; a string has at most one trigram per character, plus one per word. */
let room = new Int32Array(256);

/**
 * pg_trgm's trigrams of an ASCII string in the order it makes them (word by word, left to right, repeats kept),
 * each packed into one number; null when `s` is not ASCII. The result is a view of a shared buffer, valid until the
 * next call.
 */
function trigramSequence(s: string): Int32Array | null {
  if (room.length < 2 * s.length + 2) room = new Int32Array(2 * s.length + 2);
  const out = room;
  let n = 0;
  // A padded word seen as a sliding window of three character codes: two spaces, the word, one space.
  let a = 0x20;
  let b = 0x20;
  let inWord = false;
  for (let i = 0; i <= s.length; i++) {
    let c = i < s.length ? s.charCodeAt(i) : 0x20;
    if (c > 0x7f) return null;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    const wordChar = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    if (wordChar) {
      out[n++] = (a << 14) | (b << 7) | c;
      a = b;
      b = c;
      inWord = true;
    } else if (inWord) {
      out[n++] = (a << 14) | (b << 7) | 0x20;
      a = 0x20;
      b = 0x20;
      inWord = false;
    }
  }
  return out.subarray(0, n);
}

/** The sorted distinct trigrams of an ASCII string (what similarity compares); null when `s` is not ASCII. */
export function asciiTrigrams(s: string): Int32Array | null {
  const sequence = trigramSequence(s);
  if (!sequence) return null;
  const sorted = sequence.sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i];
  return sorted.slice(0, distinct);
}

/** A name as word similarity reads it: its distinct trigrams, and for each trigram in order, which of them it is. */
interface NameTrigrams {
  distinct: Int32Array;
  sequence: Int32Array;
}

function nameTrigrams(name: string): NameTrigrams | null {
  const distinct = asciiTrigrams(name);
  const sequence = distinct && trigramSequence(name);
  if (!distinct || !sequence) return null;
  const ids = new Int32Array(sequence.length);
  for (let i = 0; i < sequence.length; i++) ids[i] = indexOf(distinct, sequence[i]);
  return { distinct, sequence: ids };
}

let lastpos = new Int32Array(64);
let found = new Uint8Array(64);

/**
 * pg_trgm's `word_similarity(value, name)` for ASCII strings, as a float4: the greatest similarity between the
 * value's trigrams and a run of consecutive trigrams of the name, found as pg_trgm's iterate_word_similarity finds
 * it (each trigram of the name that the value has ends a run, whose start moves right while that helps).
 */
function measureWordSimilarity(value: Int32Array, name: NameTrigrams): number {
  const { distinct, sequence } = name;
  if (lastpos.length < distinct.length) {
    lastpos = new Int32Array(distinct.length);
    found = new Uint8Array(distinct.length);
  }
  const lastposOf = lastpos;
  const foundIn = found;
  // Which of the name's distinct trigrams the value has: a merge of two sorted lists.
  for (let i = 0, j = 0; i < distinct.length; i++) {
    while (j < value.length && value[j] < distinct[i]) j++;
    foundIn[i] = j < value.length && value[j] === distinct[i] ? 1 : 0;
    lastposOf[i] = -1;
  }
  // Similarities are compared as fractions count / (ulen1 + ulen2 - count) (greaterFraction), and only the best is
  // divided.
  const ulen1 = value.length;
  let ulen2 = 0;
  let count = 0;
  let lower = -1;
  let bestNum = 0;
  let bestDen = 1;
  for (let i = 0; i < sequence.length; i++) {
    const id = sequence[i];
    if (lower >= 0 || foundIn[id]) {
      if (lastposOf[id] < 0) {
        ulen2++;
        if (foundIn[id]) count++;
      }
      lastposOf[id] = i;
    }
    if (!foundIn[id]) continue;
    if (lower === -1) {
      lower = i;
      ulen2 = 1;
    }
    let curNum = count;
    let curDen = ulen1 + ulen2 - count;
    let tmpCount = count;
    let tmpUlen2 = ulen2;
    const prevLower = lower;
    for (let tmpLower = lower; tmpLower <= i; tmpLower++) {
      const den = ulen1 + tmpUlen2 - tmpCount;
      if (greaterFraction(tmpCount, den, curNum, curDen)) {
        curNum = tmpCount;
        curDen = den;
        ulen2 = tmpUlen2;
        lower = tmpLower;
        count = tmpCount;
      }
      const tmpId = sequence[tmpLower];
      if (lastposOf[tmpId] === tmpLower) {
        tmpUlen2--;
        if (foundIn[tmpId]) tmpCount--;
      }
    }
    if (greaterFraction(curNum, curDen, bestNum, bestDen)) {
      bestNum = curNum;
      bestDen = curDen;
    }
    for (let tmpLower = prevLower; tmpLower < lower; tmpLower++) {
      const tmpId = sequence[tmpLower];
      if (lastposOf[tmpId] === tmpLower) lastposOf[tmpId] = -1;
    }
  }
  return Math.fround(bestNum / bestDen);
}

/**
 * Whether fraction p1/q1 is greater than p2/q2 as pg_trgm's float4 values of them compare. Two different fractions
 * whose denominators multiply to less than 2^22 differ by more than 2.4e-7, over twice float4's spacing below 1, so
 * the exact comparison decides; beyond that (strings of thousands of trigrams) the float4 values are compared.
 */
function greaterFraction(p1: number, q1: number, p2: number, q2: number): boolean {
  if (p1 * q2 <= p2 * q1) return false;
  return q1 * q2 < EXACT_DENOMINATORS_BELOW || Math.fround(p1 / q1) > Math.fround(p2 / q2);
}

const EXACT_DENOMINATORS_BELOW = 2 ** 22;

/** pg_trgm's `word_similarity(value, name)` of two ASCII strings; null when either is not ASCII. */
export function wordSimilarity(value: string, name: string): number | null {
  const v = asciiTrigrams(value);
  const n = nameTrigrams(name);
  return v && n ? measureWordSimilarity(v, n) : null;
}

function indexOf(sorted: Int32Array, t: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] === t) return mid;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** pg_trgm's similarity of two trigram sets, as a double (its float4 is Math.fround of it). */
export function trigramSimilarity(x: Int32Array, y: Int32Array): number {
  if (x.length === 0 || y.length === 0) return 0;
  let shared = 0;
  for (let i = 0, j = 0; i < x.length && j < y.length; ) {
    if (x[i] === y[j]) {
      shared++;
      i++;
      j++;
    } else if (x[i] < y[j]) i++;
    else j++;
  }
  return shared / (x.length + y.length - shared);
}

/** pg_trgm's distance `a <-> b` from their similarity: a float4, 1 - similarity. */
export const trigramDistance = (similarity: number): number => Math.fround(1 - Math.fround(similarity));

export interface NearName {
  name: string;
  /** Exactly pg_trgm's `name <-> value`. */
  distance: number;
  /** Exactly pg_trgm's `word_similarity(value, name)`. */
  wordSimilarity: number;
}

export interface NearestNames {
  /** Per value, in order: the names that can be among its `count` nearest; null when the value is not ASCII or has no trigrams. */
  nearest: (NearName[] | null)[];
  /** Names this module cannot measure (not ASCII): candidates for every value. */
  unmeasured: string[];
}

/** The names' trigrams, inverted: built once per set of names and used for any number of values (nearestIn). */
export interface TrigramIndex {
  /** The names this module can measure (ASCII), each once. */
  measured: string[];
  /** Distinct trigrams per measured name. */
  sizes: Int32Array;
  /** Per trigram, the measured names that have it. */
  postings: Map<number, Int32Array>;
  /** Names this module cannot measure (not ASCII): candidates for every value. */
  unmeasured: string[];
  /** Word-similarity trigrams, built for the names that turn out to be candidates only. */
  forWords: (NameTrigrams | undefined)[];
}

export function trigramIndex(names: readonly string[]): TrigramIndex {
  const unmeasured: string[] = [];
  const measured: string[] = [];
  const sizes: number[] = [];
  const postings = new Map<number, number[]>();
  for (const name of new Set(names)) {
    const trigrams = asciiTrigrams(name);
    if (!trigrams) {
      unmeasured.push(name);
      continue;
    }
    const at = measured.length;
    measured.push(name);
    sizes.push(trigrams.length);
    for (const t of trigrams) {
      const list = postings.get(t);
      if (list) list.push(at);
      else postings.set(t, [at]);
    }
  }
  const lists = new Map<number, Int32Array>();
  for (const [t, list] of postings) lists.set(t, Int32Array.from(list));
  return { measured, sizes: Int32Array.from(sizes), postings: lists, unmeasured, forWords: new Array(measured.length) };
}

/**
 * For each value, the distinct names that can be among its `count` nearest by trigram distance: the `count` most
 * similar ones, and every name as similar as the last of them, since PostgreSQL may pick any of equally distant
 * names. Names sharing no trigram with a value are left out: their similarity and word similarity are 0, below any
 * suggestion. `names` and `values` are already normalised (lower(unaccent(...))).
 */
export function nearestNames(names: readonly string[], values: readonly string[], count: number): NearestNames {
  const index = trigramIndex(names);
  const { nearest, unmeasured } = nearestIn(index, values, count);
  return {
    nearest: nearest.map((near) => near && near.names.map((c) => ({ name: c.name, distance: c.distance, wordSimilarity: wordSimilarityIn(index, near.trigrams, c.at) }))),
    unmeasured,
  };
}

/** A name that can be among a value's nearest (nearestIn), without its word similarity yet. */
export interface NearCandidate {
  name: string;
  /** Exactly pg_trgm's `name <-> value`. */
  distance: number;
  /** The name's place in the index, for wordSimilarityIn. */
  at: number;
  /** How many distinct trigrams the name shares with the value. */
  shared: number;
}

/**
 * nearestNames over an index built before, leaving word similarity to be measured (wordSimilarityIn) for the
 * candidates that make the cut: of a value's candidates, the ranking keeps `count` rows.
 */
export function nearestIn(
  index: TrigramIndex,
  values: readonly string[],
  count: number,
): { nearest: ({ trigrams: Int32Array; names: NearCandidate[] } | null)[]; unmeasured: string[] } {
  const nearest: ({ trigrams: Int32Array; names: NearCandidate[] } | null)[] = new Array(values.length);
  // Scratch space reused for every value: shared trigram counts per name, the names touched, their similarities.
  const size = index.measured.length;
  const scratch = { shared: new Uint16Array(size), touched: new Int32Array(size), similarity: new Float64Array(size), ordered: new Float64Array(size) };
  for (let v = 0; v < values.length; v++) {
    const trigrams = asciiTrigrams(values[v]!);
    nearest[v] = trigrams && trigrams.length > 0 ? { trigrams, names: nearestOne(index, trigrams, count, scratch) } : null;
  }
  return { nearest, unmeasured: index.unmeasured };
}

/** pg_trgm's `word_similarity(value, name)` of a value's trigrams and the name at `at` of the index. */
export function wordSimilarityIn(index: TrigramIndex, valueTrigrams: Int32Array, at: number): number {
  return measureWordSimilarity(valueTrigrams, (index.forWords[at] ??= nameTrigrams(index.measured[at]!)!));
}

function nearestOne(
  index: TrigramIndex,
  trigrams: Int32Array,
  count: number,
  scratch: { shared: Uint16Array; touched: Int32Array; similarity: Float64Array; ordered: Float64Array },
): NearCandidate[] {
  const { shared, touched, similarity, ordered } = scratch;
  const { postings, sizes } = index;
  let n = 0;
  for (let k = 0; k < trigrams.length; k++) {
    const list = postings.get(trigrams[k]!);
    if (list === undefined) continue;
    for (let i = 0; i < list.length; i++) {
      const at = list[i]!;
      if (shared[at]++ === 0) touched[n++] = at;
    }
  }
  const a = trigrams.length;
  for (let i = 0; i < n; i++) {
    const at = touched[i]!;
    const c = shared[at]!;
    similarity[at] = c / (a + sizes[at]! - c);
    ordered[i] = similarity[at]!;
  }
  // Every name at least as similar as the count-th most similar one: ties at the boundary included.
  const threshold = n > count ? kthLargest(ordered, n, count) : 0;
  const out: NearCandidate[] = [];
  for (let i = 0; i < n; i++) {
    const at = touched[i]!;
    if (similarity[at]! >= threshold) out.push({ name: index.measured[at]!, distance: trigramDistance(similarity[at]!), at, shared: shared[at]! });
    shared[at] = 0;
  }
  return out;
}

/** The k-th largest of the first `n` values of `a` (1-based k <= n), by quickselect; reorders them. */
function kthLargest(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] > pivot) i++;
      while (a[j] < pivot) j--;
      if (i <= j) {
        const tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return a[target];
  }
  return a[target];
}
