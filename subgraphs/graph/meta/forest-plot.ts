/**
 * Forest plot of a meta-analysis result as a standalone SVG.
 *
 * Choices a reader may notice:
 * - One row per study: label, a square whose area is proportional to the study's weight, the CI whisker, and on the
 *   right "estimate [lower, upper]" and the weight in percent. The pooled estimate is a diamond spanning its CI; the
 *   prediction interval is a dashed line with end caps under it (not drawn for the equal-effects model, where it
 *   equals the CI).
 * - Ratio measures (logRR, logOR) are drawn on a log axis labelled with ratios, the reference line at 1; other
 *   measures on a linear axis with the reference line at 0. Numbers on the right follow the axis (ratios).
 * - The axis covers every estimate, the pooled CI, the PI and the null value. A study CI that would stretch the axis
 *   beyond three times that width is cut at the edge and ends in an arrow, so one tiny study cannot squash the rest.
 */
import {
  FONT,
  INK,
  MUTED,
  MINUS,
  PALETTE,
  TITLE_BAND,
  axis,
  bottomAxisHeight,
  canvasSize,
  chartTitle,
  el,
  niceTicks,
  polyline,
  svgDocument,
  text,
  textWidth,
  type Scale,
} from '../../../domain/plot/svg.js';
import { RATIO_MEASURES, type MetaResult } from './meta.model.js';

export interface ForestPlotOptions {
  title?: string;
  /** Axis title; defaults to the measure's name. */
  xLabel?: string;
  width?: number;
}

const ROW = 22;
const HEADER = 26;
const PAD = 16;
const COLUMN_GAP = 14;
const MAX_LABEL_WIDTH = 240;
const ESTIMATE_WIDTH = 160;
const WEIGHT_WIDTH = 56;
const SQUARE_MAX = 16;
const SQUARE_MIN = 4;
const ARROW = 6;
const CLIP_FACTOR = 3;
const STUDY_COLOR = PALETTE[0];
const POOLED_COLOR = INK;

const MEASURE_NAMES: Record<string, string> = {
  GEN: 'Effect size',
  logRR: 'Risk ratio (log scale)',
  logOR: 'Odds ratio (log scale)',
  RD: 'Risk difference',
  MD: 'Mean difference',
  SMD: "Standardised mean difference (Hedges' g)",
};

const METHOD_LABEL: Record<string, string> = {
  FE: 'Equal-effects model',
  REML: 'RE model (REML)',
  ML: 'RE model (ML)',
  DL: 'RE model (DL)',
  PM: 'RE model (PM)',
  HE: 'RE model (HE)',
};

const signed = (s: string) => (s.startsWith('-') ? MINUS + s.slice(1) : s);
const fixed = (v: number, digits = 2) => signed(Number(v.toFixed(digits)).toFixed(digits));

function pValue(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

function compact(v: number): string {
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 0.001 || abs >= 1e5)) return signed(v.toExponential(2));
  return signed(String(Number(v.toPrecision(3))));
}

/** Ratio ticks: 1-2-5 steps (with 0.25 and 4 as well) inside the domain, always including 1 when it is inside. */
function ratioTicks(lo: number, hi: number): number[] {
  const candidates: number[] = [];
  for (let e = -6; e <= 6; e++) for (const m of [1, 2, 2.5, 4, 5]) candidates.push(m * 10 ** e);
  const inside = candidates.filter((t) => Math.log(t) >= lo - 1e-12 && Math.log(t) <= hi + 1e-12).map((t) => Number(t.toPrecision(3)));
  for (const keep of [[1, 2.5, 4, 5, 2], [1, 2, 5], [1, 5], [1]]) {
    const chosen = inside.filter((t) => keep.some((m) => Math.abs(t / 10 ** Math.floor(Math.log10(t) + 1e-9) - m) < 1e-9));
    if (chosen.length <= 8) return chosen;
  }
  return inside.slice(0, 8);
}

interface Layout {
  /** Left and right ends of the plot area in pixels. */
  x0: number;
  x1: number;
  /** Analysis-scale domain (log scale for ratio measures). */
  lo: number;
  hi: number;
}

const toPixel = (l: Layout) => (v: number) => l.x0 + ((v - l.lo) / (l.hi - l.lo)) * (l.x1 - l.x0);

/** The axis domain on the analysis scale, before rounding to ticks. */
function domainOf(result: MetaResult, nullValue: number): [number, number] {
  const core = [nullValue, result.ci_lower, result.ci_upper, ...result.studies.map((s) => s.yi)];
  if (result.method !== 'FE') core.push(result.pi_lower, result.pi_upper);
  let lo = Math.min(...core.filter(Number.isFinite));
  let hi = Math.max(...core.filter(Number.isFinite));
  const width = hi - lo || 1;
  const allLo = Math.min(...result.studies.map((s) => s.ci_lower));
  const allHi = Math.max(...result.studies.map((s) => s.ci_upper));
  const limit = ((CLIP_FACTOR - 1) * width) / 2;
  lo = Math.max(Math.min(lo, allLo), lo - limit);
  hi = Math.min(Math.max(hi, allHi), hi + limit);
  return [lo, hi];
}

function buildScale(result: MetaResult, isRatio: boolean, x0: number, x1: number): { scale: Scale; layout: Layout } {
  const [dLo, dHi] = domainOf(result, 0);
  if (isRatio) {
    // Pad to the next tick-friendly ratio so the outer ticks sit at the ends of the axis.
    const pad = (dHi - dLo) * 0.04 || 0.1;
    const lo = dLo - pad;
    const hi = dHi + pad;
    const layout = { x0, x1, lo, hi };
    const px = toPixel(layout);
    const ticks = ratioTicks(lo, hi);
    return {
      layout,
      scale: {
        kind: 'log',
        domain: [Math.exp(lo), Math.exp(hi)],
        range: [x0, x1],
        ticks,
        minor: [],
        map: (v) => px(Math.log(v)),
        format: (v) => compact(v),
      },
    };
  }
  const nice = niceTicks(dLo, dHi, 6);
  const layout = { x0, x1, lo: nice.min, hi: nice.max };
  const px = toPixel(layout);
  return {
    layout,
    scale: { kind: 'linear', domain: [nice.min, nice.max], range: [x0, x1], ticks: nice.ticks, minor: [], map: px, format: (v) => compact(v) },
  };
}

/** A whisker from lo to hi at y, cut at the plot edges with an arrow where it leaves them. */
function whisker(lo: number, hi: number, y: number, l: Layout, color: string, className: string) {
  const px = toPixel(l);
  const from = px(Math.max(lo, l.lo));
  const to = px(Math.min(hi, l.hi));
  return el('g', { class: className }, [
    el('line', { x1: from, y1: y, x2: to, y2: y, stroke: color, 'stroke-width': 1.5, class: 'ci' }),
    lo < l.lo ? el('path', { d: `${polyline([[from, y], [from + ARROW, y - ARROW / 2], [from + ARROW, y + ARROW / 2]])}Z`, fill: color, class: 'clip-arrow' }) : null,
    hi > l.hi ? el('path', { d: `${polyline([[to, y], [to - ARROW, y - ARROW / 2], [to - ARROW, y + ARROW / 2]])}Z`, fill: color, class: 'clip-arrow' }) : null,
  ]);
}

/**
 * The SVG of a forest plot of `result`. User text (labels, title) only reaches the output escaped, through the
 * shared element builder.
 */
export function forestPlot(result: MetaResult, options: ForestPlotOptions = {}): string {
  const isRatio = RATIO_MEASURES.has(result.measure);
  const show = (v: number) => (isRatio ? Math.exp(v) : v);
  const title = options.title ?? `Forest plot: ${MEASURE_NAMES[result.measure] ?? result.measure}`;
  const xLabel = options.xLabel ?? MEASURE_NAMES[result.measure] ?? result.measure;
  const k = result.studies.length;

  const labelWidth = Math.min(MAX_LABEL_WIDTH, Math.max(textWidth('Study', FONT.tick, true), ...result.studies.map((s) => textWidth(s.label, FONT.tick)), textWidth(METHOD_LABEL[result.method] ?? '', FONT.tick, true)) + 4);
  const { width } = canvasSize(options.width, 0, { width: 900, height: 0 });
  const plotLeft = PAD + labelWidth + COLUMN_GAP;
  const weightRight = width - PAD;
  const estimateRight = weightRight - WEIGHT_WIDTH - COLUMN_GAP;
  const plotRight = Math.max(plotLeft + 120, estimateRight - ESTIMATE_WIDTH - COLUMN_GAP);

  const headerY = TITLE_BAND + 8 + HEADER / 2;
  const rowY = (i: number) => TITLE_BAND + 8 + HEADER + i * ROW + ROW / 2;
  const pooledY = rowY(k) + ROW * 0.6;
  const piY = pooledY + ROW * 0.75;
  const plotBottom = piY + ROW * 0.6;
  const hetY = plotBottom + bottomAxisHeight(true) + 18;
  const height = Math.ceil(hetY + 14);

  const { scale, layout } = buildScale(result, isRatio, plotLeft, plotRight);
  const px = toPixel(layout);
  const maxWeight = Math.max(...result.studies.map((s) => s.weight));
  const interval = (e: number, lo: number, hi: number) => `${fixed(show(e))} [${fixed(show(lo))}, ${fixed(show(hi))}]`;
  const inPlot = (v: number) => v >= layout.lo && v <= layout.hi;

  const rows = result.studies.map((s, i) => {
    const y = rowY(i);
    const side = SQUARE_MIN + (SQUARE_MAX - SQUARE_MIN) * Math.sqrt(s.weight / maxWeight);
    return el('g', { class: 'study-row' }, [
      text(s.label, { x: PAD, y, middle: true, maxWidth: labelWidth, className: 'study-label' }),
      whisker(s.ci_lower, s.ci_upper, y, layout, STUDY_COLOR, 'study-ci'),
      inPlot(s.yi)
        ? el('rect', { x: px(s.yi) - side / 2, y: y - side / 2, width: side, height: side, fill: STUDY_COLOR, class: 'study-square' }, [
            el('title', {}, `${s.label}: ${interval(s.yi, s.ci_lower, s.ci_upper)}, weight ${s.weight.toFixed(1)}%`),
          ])
        : null,
      text(interval(s.yi, s.ci_lower, s.ci_upper), { x: estimateRight, y, anchor: 'end', middle: true, className: 'study-estimate' }),
      text(`${s.weight.toFixed(1)}%`, { x: weightRight, y, anchor: 'end', middle: true, className: 'study-weight' }),
    ]);
  });

  const dx = (v: number) => px(Math.min(Math.max(v, layout.lo), layout.hi));
  const diamond = el(
    'path',
    {
      d: `${polyline([[dx(result.ci_lower), pooledY], [dx(result.estimate), pooledY - 7], [dx(result.ci_upper), pooledY], [dx(result.estimate), pooledY + 7]])}Z`,
      fill: POOLED_COLOR,
      class: 'diamond',
    },
    [el('title', {}, `${METHOD_LABEL[result.method]}: ${interval(result.estimate, result.ci_lower, result.ci_upper)}`)],
  );
  const showPi = result.method !== 'FE';
  const predictionInterval = showPi
    ? el('g', { class: 'prediction-interval' }, [
        el('line', { x1: dx(result.pi_lower), y1: piY, x2: dx(result.pi_upper), y2: piY, stroke: MUTED, 'stroke-width': 1.5, 'stroke-dasharray': '5 3' }),
        el('line', { x1: dx(result.pi_lower), y1: piY - 4, x2: dx(result.pi_lower), y2: piY + 4, stroke: MUTED, 'stroke-width': 1.5 }),
        el('line', { x1: dx(result.pi_upper), y1: piY - 4, x2: dx(result.pi_upper), y2: piY + 4, stroke: MUTED, 'stroke-width': 1.5 }),
        el('title', {}, `${result.level}% prediction interval: [${fixed(show(result.pi_lower))}, ${fixed(show(result.pi_upper))}]`),
      ])
    : null;

  const het =
    result.method === 'FE'
      ? `Heterogeneity: I² = ${result.I2.toFixed(1)}%, Q = ${result.Q.toFixed(2)} (df = ${result.df}), ${pValue(result.p_Q)}`
      : `Heterogeneity: τ² = ${compact(result.tau2)}, I² = ${result.I2.toFixed(1)}%, Q = ${result.Q.toFixed(2)} (df = ${result.df}), ${pValue(result.p_Q)}`;
  const test = `Test of the pooled effect: ${result.statistic_kind} = ${fixed(result.statistic)}${result.statistic_df !== null ? ` (df = ${result.statistic_df})` : ''}, ${pValue(result.p)}`;

  const body = [
    chartTitle(title, width),
    el('g', { class: 'header' }, [
      text('Study', { x: PAD, y: headerY, bold: true, middle: true }),
      text(`${isRatio ? (result.back_transformed?.scale ?? '') : 'Estimate'} [${result.level}% CI]`, { x: estimateRight, y: headerY, bold: true, anchor: 'end', middle: true }),
      text('Weight', { x: weightRight, y: headerY, bold: true, anchor: 'end', middle: true }),
      el('line', { x1: PAD, y1: headerY + HEADER / 2, x2: width - PAD, y2: headerY + HEADER / 2, stroke: '#cccccc' }),
    ]),
    inPlot(0)
      ? el('line', { x1: px(0), y1: headerY + HEADER / 2, x2: px(0), y2: plotBottom, stroke: MUTED, 'stroke-width': 1, class: 'null-line' })
      : null,
    el('g', { class: 'studies' }, rows),
    el('line', { x1: PAD, y1: pooledY - ROW / 2 - 1, x2: width - PAD, y2: pooledY - ROW / 2 - 1, stroke: '#cccccc' }),
    el('g', { class: 'pooled-row' }, [
      text(METHOD_LABEL[result.method] ?? result.method, { x: PAD, y: pooledY, bold: true, middle: true, maxWidth: labelWidth, className: 'pooled-label' }),
      diamond,
      text(interval(result.estimate, result.ci_lower, result.ci_upper), { x: estimateRight, y: pooledY, bold: true, anchor: 'end', middle: true, className: 'pooled-estimate' }),
      text('100%', { x: weightRight, y: pooledY, bold: true, anchor: 'end', middle: true }),
    ]),
    showPi
      ? el('g', { class: 'prediction-row' }, [
          text('Prediction interval', { x: PAD, y: piY, middle: true, fill: MUTED, maxWidth: labelWidth }),
          predictionInterval,
          text(`[${fixed(show(result.pi_lower))}, ${fixed(show(result.pi_upper))}]`, { x: estimateRight, y: piY, anchor: 'end', middle: true, fill: MUTED, className: 'pi-estimate' }),
        ])
      : null,
    axis({ scale, orient: 'bottom', at: plotBottom, title: xLabel }),
    text(`${het}. ${test}`, { x: PAD, y: hetY, size: FONT.note, fill: MUTED, maxWidth: width - 2 * PAD, className: 'heterogeneity' }),
  ];
  return svgDocument({ width, height, title, description: `${k} studies; ${METHOD_LABEL[result.method]}; ${het}` }, body);
}
