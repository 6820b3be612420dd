/**
 * Line chart with point markers, e.g. a reachability curve (cumulative reachable cells against hops k = 1..K).
 *
 * Choices a caller may notice:
 * - Points with a non-finite coordinate are dropped; each series is drawn in x order.
 * - Without `yMin`, the y axis starts at 0 when no value is negative (magnitudes are compared from zero); with
 *   `yMin`/`yMax` the bounds are exact and anything outside them is clipped.
 * - Each series has its own colour and marker shape; markers are left out for series longer than 150 points.
 * - The legend appears from two series on, to the right of the plot. A single series' name is shown only as a
 *   tooltip, so put what it is (the source cells) in the title or the note.
 */
import {
  FONT,
  MARKER_SHAPES,
  MUTED,
  TITLE_BAND,
  axis,
  bottomAxisHeight,
  canvasSize,
  chartTitle,
  el,
  extent,
  formatNumber,
  idPrefix,
  leftAxisWidth,
  legend,
  lineSwatch,
  linearScale,
  marker,
  niceTicks,
  paletteColor,
  emptyNotice,
  isFiniteNumber,
  polyline,
  svgDocument,
  text,
  wrap,
  type Legend,
  type Scale,
} from './svg.js';

export interface LineSeries {
  name: string;
  points: Array<[number, number]>;
}

export interface LineChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: LineSeries[];
  yMin?: number;
  yMax?: number;
  /** x values are counts (hops): ticks fall on whole numbers only. */
  xInteger?: boolean;
  width?: number;
  height?: number;
  /** A footnote under the chart (method, sample size); wrapped to at most three lines. */
  note?: string;
}

const MAX_MARKED_POINTS = 150;
const MARKER_SIZE = 8;
/** Keeps the first and last markers off the y axis line. */
const X_PADDING = 14;


export function lineChart(opts: LineChartOptions): string {
  const { width, height } = canvasSize(opts.width, opts.height, { width: 720, height: 450 });
  const series = (opts.series ?? []).map((s, i) => ({
    name: String(s?.name ?? ''),
    color: paletteColor(i),
    shape: MARKER_SHAPES[i % MARKER_SHAPES.length]!,
    points: (s?.points ?? [])
      .filter((p): p is [number, number] => Array.isArray(p) && isFiniteNumber(p[0]) && isFiniteNumber(p[1]))
      .map(([x, y]): [number, number] => [x, y])
      .sort((a, b) => a[0] - b[0]),
  }));
  const all = series.flatMap((s) => s.points);

  const key: Legend | undefined =
    series.length > 1
      ? legend(
          series.map((s) => ({ label: s.name, swatch: lineSwatch(s.color, s.shape) })),
          { maxWidth: Math.min(220, width * 0.28) },
        )
      : undefined;
  const note = opts.note ? wrap(opts.note, width - 24, FONT.note, 3) : undefined;
  const noteHeight = note?.lines.length ? note.lines.length * FONT.note * 1.35 + 6 : 0;

  const plotTop = TITLE_BAND + 12;
  const plotBottom = height - bottomAxisHeight(Boolean(opts.xLabel)) - noteHeight - 6;
  const y = yScale(all, opts, [plotBottom, plotTop]);
  const plotLeft = 12 + leftAxisWidth(y, Boolean(opts.yLabel));
  const plotRight = width - (key ? key.width + 36 : 28);
  const x = xScale(all, opts, [plotLeft + X_PADDING, plotRight - X_PADDING]);
  const plotWidth = plotRight - plotLeft;

  const clipId = `${idPrefix(JSON.stringify(opts))}-clip`;
  const isClipped = isFiniteNumber(opts.yMin) || isFiniteNumber(opts.yMax);
  const showZero = y.domain[0] < 0 && y.domain[1] > 0;

  const body = [
    chartTitle(opts.title, width),
    isClipped
      ? el('defs', {}, el('clipPath', { id: clipId }, el('rect', { x: plotLeft, y: plotTop - MARKER_SIZE, width: plotWidth, height: plotBottom - plotTop + 2 * MARKER_SIZE })))
      : null,
    axis({ scale: y, orient: 'left', at: plotLeft, title: opts.yLabel, gridLength: plotWidth }),
    axis({ scale: x, orient: 'bottom', at: plotBottom, title: opts.xLabel, extent: [plotLeft, plotRight] }),
    showZero ? el('line', { x1: plotLeft, y1: y.map(0), x2: plotRight, y2: y.map(0), stroke: MUTED, 'stroke-width': 1, class: 'zero-line' }) : null,
    el(
      'g',
      { class: 'plot', 'clip-path': isClipped ? `url(#${clipId})` : undefined },
      series.map((s) =>
        el('g', { class: 'series', 'data-series': s.name }, [
          el('title', {}, s.name),
          s.points.length > 1
            ? el('path', { class: 'series-line', d: polyline(s.points.map(([px, py]) => [x.map(px), y.map(py)])), fill: 'none', stroke: s.color, 'stroke-width': 2.5, 'stroke-linejoin': 'round' })
            : null,
          s.points.length <= MAX_MARKED_POINTS
            ? s.points.map(([px, py]) =>
                marker(s.shape, x.map(px), y.map(py), MARKER_SIZE, s.color, { class: 'point' }, el('title', {}, `${s.name}: ${formatNumber(px, 4)}, ${formatNumber(py, 4)}`)),
              )
            : null,
        ]),
      ),
    ),
    all.length ? null : emptyNotice({ x: plotLeft, y: plotTop, width: plotWidth, height: plotBottom - plotTop }, 'No data'),
    key ? key.render(plotRight + 24, plotTop) : null,
    note?.lines.length
      ? el('g', { class: 'note' }, [
          note.truncated ? el('title', {}, opts.note ?? '') : null,
          note.lines.map((line, i) => text(line, { x: 12, y: height - 8 - (note.lines.length - 1 - i) * FONT.note * 1.35, size: FONT.note, fill: MUTED })),
        ])
      : null,
  ];
  return svgDocument({ width, height, title: opts.title, description: opts.note }, body);
}

function yScale(points: Array<[number, number]>, opts: LineChartOptions, range: [number, number]): Scale {
  const [dataMin, dataMax] = extent(points.map((p) => p[1])) ?? [0, 1];
  const lo = isFiniteNumber(opts.yMin) ? opts.yMin : Math.min(0, dataMin);
  const hi = isFiniteNumber(opts.yMax) ? opts.yMax : dataMax;
  const count = Math.max(2, Math.round((range[0] - range[1]) / 55));
  const ticks = niceTicks(lo, hi, count);
  let domain: [number, number] = [isFiniteNumber(opts.yMin) ? opts.yMin : ticks.min, isFiniteNumber(opts.yMax) ? opts.yMax : ticks.max];
  if (!(domain[1] > domain[0])) domain = [ticks.min, ticks.max];
  return linearScale(domain, range, ticks);
}

function xScale(points: Array<[number, number]>, opts: LineChartOptions, range: [number, number]): Scale {
  let [lo, hi] = extent(points.map((p) => p[0])) ?? [0, 1];
  const integer = Boolean(opts.xInteger);
  if (hi === lo) [lo, hi] = integer ? [lo - 1, hi + 1] : [lo - (Math.abs(lo) || 1) / 2, hi + (Math.abs(hi) || 1) / 2];
  const length = range[1] - range[0];
  // Hop counts read best with a tick on every value while they fit; beyond that, 1-2-5 steps.
  const count = integer && hi - lo <= length / 40 ? hi - lo : Math.max(2, Math.round(length / 90));
  const ticks = niceTicks(lo, hi, count, { integer });
  // Integer x keeps the data's own extent (no empty k = 0 column); continuous x gets the nice extent.
  return linearScale(integer ? [lo, hi] : [ticks.min, ticks.max], range, ticks);
}
