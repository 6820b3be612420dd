/**
 * Axis ticks and tick labels. Linear ticks step by 1, 2 or 5 × 10ⁿ; log ticks sit on powers of ten.
 * Tick values are rebuilt from integers (i × mantissa ÷ 10ⁿ) rather than accumulated, so 0.1 + 0.2 comes out as 0.3.
 */

export interface Ticks {
  /** The nice domain: the first tick is ≤ the requested min and the last ≥ the requested max. */
  min: number;
  max: number;
  /** Distance between ticks (for log ticks: the distance in decades). */
  step: number;
  ticks: number[];
}

export interface LogTicks extends Ticks {
  /** 2–9 × 10ⁿ inside the domain, for light grid lines; empty when the axis spans too many decades to need them. */
  minor: number[];
}

const MAX_TICKS = 1000;

/**
 * [min, max] of the values, or undefined when there are none. A loop rather than Math.min(...values): spreading
 * a data-sized array overflows the call stack at a few hundred thousand elements.
 */
export function extent(values: Iterable<number>): [number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : undefined;
}

/** 10ⁿ computed so that negative n gives the closest double (1 / 1000 rather than 10 ** -3 rounding twice). */
export function pow10(n: number): number {
  return n >= 0 ? 10 ** n : 1 / 10 ** -n;
}

function scaled(mantissa: number, exponent: number): number {
  return exponent >= 0 ? mantissa * 10 ** exponent : mantissa / 10 ** -exponent;
}

/**
 * The 1, 2 or 5 × 10ⁿ step closest to `raw` (on a log scale, as d3 does), as [mantissa, exponent]. Rounding up
 * instead would often halve the number of ticks: 301 over 6 intervals would get a step of 100 rather than 50.
 */
function niceStep(raw: number): [number, number] {
  let exponent = Math.floor(Math.log10(raw));
  const norm = raw / pow10(exponent);
  let mantissa = norm >= Math.sqrt(50) ? 10 : norm >= Math.sqrt(10) ? 5 : norm >= Math.sqrt(2) ? 2 : 1;
  if (mantissa === 10) [mantissa, exponent] = [1, exponent + 1];
  return [mantissa, exponent];
}

/**
 * Ticks for a linear axis covering [min, max] with about `count` intervals.
 * A zero-width or non-finite range is widened rather than rejected, so every chart can still draw an axis.
 * With `integer`, the step is never below 1 (hop counts, degrees).
 */
export function niceTicks(min: number, max: number, count = 5, options: { integer?: boolean } = {}): Ticks {
  let lo = Number.isFinite(min) ? min : Number.isFinite(max) ? max : 0;
  let hi = Number.isFinite(max) ? max : lo;
  if (lo > hi) [lo, hi] = [hi, lo];
  if (hi - lo === 0 || !Number.isFinite(hi - lo)) {
    if (!Number.isFinite(hi - lo)) [lo, hi] = [0, 1];
    else if (lo === 0) hi = 1;
    else {
      const half = Math.abs(lo) / 2;
      [lo, hi] = [lo - half, hi + half];
    }
  }
  const intervals = Math.max(1, Math.min(Math.round(Number.isFinite(count) ? count : 5), 100));
  let [mantissa, exponent] = niceStep((hi - lo) / intervals);
  if (options.integer && exponent < 0) [mantissa, exponent] = [1, 0];
  const step = scaled(mantissa, exponent);
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.max(first + 1, Math.ceil(hi / step - 1e-9));
  const ticks: number[] = [];
  for (let i = first; i <= last && ticks.length < MAX_TICKS; i++) ticks.push(scaled(i * mantissa, exponent) + 0);
  return { min: ticks[0]!, max: ticks[ticks.length - 1]!, step, ticks };
}

/**
 * Ticks for a log axis: the powers of ten covering [min, max] (at least one decade). When the range spans many
 * decades, only every second or third power is labelled so the labels do not collide. Non-positive input falls back
 * to a decade that contains the positive bound.
 */
export function logTicks(min: number, max: number, maxTicks = 8): LogTicks {
  let lo = Number.isFinite(min) && min > 0 ? min : Number.isFinite(max) && max > 0 ? max : 1;
  let hi = Number.isFinite(max) && max > 0 ? max : lo;
  if (lo > hi) [lo, hi] = [hi, lo];
  let first = Math.floor(Math.log10(lo) + 1e-9);
  let last = Math.ceil(Math.log10(hi) - 1e-9);
  if (last <= first) last = first + 1;
  first = Math.max(first, -300);
  last = Math.min(last, 300);
  const stride = Math.max(1, Math.ceil((last - first) / Math.max(1, maxTicks - 1)));
  last = first + Math.ceil((last - first) / stride) * stride;
  const ticks: number[] = [];
  for (let e = first; e <= last; e += stride) ticks.push(pow10(e));
  const minor: number[] = [];
  // Beyond three decades the minor lines crowd into a grey wash.
  if (last - first <= 3) {
    for (let e = first; e < last; e++) for (let m = 2; m <= 9; m++) minor.push(scaled(m, e));
  }
  return { min: pow10(first), max: pow10(last), step: stride, ticks, minor };
}

const SUPERSCRIPT: Record<string, string> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻',
};
/** Typographic minus: a hyphen next to digits reads as a dash on a slide. */
export const MINUS = '\u2212';

function superscript(n: number): string {
  return String(n).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c]!);
}

function signed(text: string): string {
  return text.startsWith('-') ? MINUS + text.slice(1) : text;
}

/** Plain digits stop being readable at a glance above this (100000 vs 1000000), and below the small bound. */
const PLAIN_MAX = 1e5;
const PLAIN_MIN_STEP = 1e-3;

/** m × 10ⁿ with `decimals` digits after the mantissa's point, trailing zeros dropped. */
function scientific(value: number, decimals: number): string {
  if (value === 0) return '0';
  let exponent = Math.floor(Math.log10(Math.abs(value)));
  let mantissa = value / pow10(exponent);
  // toFixed can round 9.99 up to 10.0; move that into the exponent.
  if (Math.abs(Number(mantissa.toFixed(decimals))) >= 10) {
    exponent += 1;
    mantissa = value / pow10(exponent);
  }
  const m = Number(mantissa.toFixed(Math.max(0, Math.min(decimals, 20)))).toString();
  return `${signed(m)}×10${superscript(exponent)}`;
}

/**
 * A formatter for the labels of one axis. All labels of an axis share one style: plain decimals with just enough
 * digits for the step, or m × 10ⁿ for all of them when the values are very large or the step very small.
 */
export function tickFormat(ticks: readonly number[], step: number): (value: number) => string {
  const finite = ticks.filter(Number.isFinite);
  const largest = finite.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const safeStep = Number.isFinite(step) && step > 0 ? step : 1;
  const stepExponent = Math.floor(Math.log10(safeStep) + 1e-9);
  if (largest >= PLAIN_MAX || safeStep < PLAIN_MIN_STEP) {
    return (value) => {
      if (!Number.isFinite(value)) return '';
      if (value === 0) return '0';
      const exponent = Math.floor(Math.log10(Math.abs(value)) + 1e-9);
      return scientific(value, Math.max(0, exponent - stepExponent));
    };
  }
  const decimals = Math.max(0, -stepExponent);
  // Going through Number() turns a rounded "-0.00" into 0, so no label reads "−0".
  return (value) => (Number.isFinite(value) ? signed(Number(value.toFixed(decimals)).toFixed(decimals)) : '');
}

/** A formatter for powers of ten: 0.01 … 10000 as plain numbers, 10ⁿ when any label would be longer. */
export function logTickFormat(ticks: readonly number[]): (value: number) => string {
  const exponents = ticks.filter((v) => v > 0).map((v) => Math.round(Math.log10(v)));
  const plain = exponents.every((e) => e >= -2 && e <= 4);
  return (value) => {
    if (!(value > 0) || !Number.isFinite(value)) return '';
    const e = Math.round(Math.log10(value));
    if (plain) return pow10(e).toFixed(Math.max(0, -e));
    return `10${superscript(e)}`;
  };
}

/** A value for a legend or tooltip: up to `digits` significant digits, m × 10ⁿ when very large or small. */
export function formatNumber(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return '';
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= PLAIN_MAX || magnitude < PLAIN_MIN_STEP) return scientific(value, digits - 1);
  const rounded = Number(value.toPrecision(digits));
  // Integers stay whole: 12345 with 3 digits would otherwise read as 12300.
  const text = Number.isInteger(value) ? String(value) : String(rounded);
  return signed(text);
}
