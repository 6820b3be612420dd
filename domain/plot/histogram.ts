/**
 * Histograms as small multiples, e.g. in-, out- and total degree of a connectome: one panel per entry, up to three
 * side by side, more in a grid.
 *
 * Choices a caller may notice:
 * - All panels share one x and one y scale, so panels compare at a glance; y tick labels are on the first column.
 * - Integer x gets a bar per value while bars stay at least 2 px wide. Beyond that, values are summed into bins of a
 *   1-2-5 width aligned to multiples of it (0–9, 10–19, …); the tooltip of each bar names its range. Non-integer x is
 *   placed on a lattice of the smallest gap between values and binned the same way.
 * - Repeated x values are summed. Counts that are negative or not finite count as 0; bars of 0 are not drawn.
 * - `logY` puts counts on a log axis whose floor is half the lowest labelled power of ten, so a count of 1 still shows.
 */
import {
  FONT,
  TITLE_BAND,
  axis,
  bottomAxisHeight,
  canvasSize,
  chartTitle,
  el,
  extent,
  formatNumber,
  leftAxisWidth,
  linearScale,
  logScale,
  logTicks,
  niceTicks,
  paletteColor,
  emptyNotice,
  isFiniteNumber,
  svgDocument,
  text,
  type Box,
  type Scale,
} from './svg.js';

export interface HistogramPanel {
  name: string;
  bins: Array<{ x: number; count: number }>;
}

export interface HistogramOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  panels: HistogramPanel[];
  logY?: boolean;
  width?: number;
  height?: number;
}

/** Thinner bars than this blur into a solid area; bin instead. */
const MIN_BAR_PX = 2;
const HEADING = 22;
const COLUMN_GAP = 22;
const ROW_GAP = 14;

interface Bar {
  /** Bin edges in data units. */
  from: number;
  to: number;
  count: number;
  label: string;
}


export function histogramChart(opts: HistogramOptions): string {
  const input = opts.panels?.length ? opts.panels : [{ name: '', bins: [] }];
  const panels = input.map((p) => ({ name: String(p?.name ?? ''), values: mergeBins(p?.bins ?? []) }));
  const cols = panels.length <= 3 ? panels.length : Math.ceil(Math.sqrt(panels.length));
  const rows = Math.ceil(panels.length / cols);
  const { width, height } = canvasSize(opts.width, opts.height, {
    width: Math.min(1000, Math.max(640, 120 + 290 * cols)),
    height: Math.min(1000, 130 + 290 * rows),
  });

  const xTickBand = bottomAxisHeight(false);
  const xTitleBand = opts.xLabel ? FONT.label + 14 : 6;
  const top = TITLE_BAND + 4;
  const plotHeight = Math.max(40, (height - top - xTitleBand - rows * (HEADING + xTickBand) - (rows - 1) * ROW_GAP) / rows);
  const leftOf = (y: Scale) => 12 + (opts.yLabel ? FONT.label + 10 : 0) + leftAxisWidth(y, false);
  const widthOf = (left: number) => Math.max(40, (width - left - 20 - (cols - 1) * COLUMN_GAP) / cols);
  // Bin width depends on the panel width, which depends on the y labels, which depend on the binned counts: bin
  // with the width that the unbinned counts' labels leave, which is at most a few pixels off.
  const provisional = widthOf(leftOf(yScale(panels.map((p) => p.values.map((v) => v.count)), Boolean(opts.logY), [plotHeight, 0])));
  const layout = binLayout(panels.flatMap((p) => p.values.map((v) => v.x)), Math.floor(provisional / MIN_BAR_PX));
  const bars = panels.map((p) => binValues(p.values, layout));
  const y = yScale(bars.map((b) => b.map((bar) => bar.count)), Boolean(opts.logY), [plotHeight, 0]);
  const left = leftOf(y);
  const plotWidth = widthOf(left);
  const x = xScale(layout, [0, plotWidth]);

  const boxes: Box[] = panels.map((_, i) => ({
    x: left + (i % cols) * (plotWidth + COLUMN_GAP),
    y: top + Math.floor(i / cols) * (HEADING + plotHeight + xTickBand + ROW_GAP) + HEADING,
    width: plotWidth,
    height: plotHeight,
  }));
  const gridTop = boxes[0]!.y;
  const gridBottom = boxes[boxes.length - 1]!.y + plotHeight;

  const body = [
    chartTitle(opts.title, width),
    panels.map((panel, i) => drawPanel(panel.name, bars[i]!, boxes[i]!, x, y, paletteColor(i), i % cols === 0, Boolean(opts.logY), panel.values.length === 0)),
    opts.yLabel
      ? text(opts.yLabel, { x: 12 + FONT.label * 0.8, y: (gridTop + gridBottom) / 2, rotate: -90, anchor: 'middle', size: FONT.label, maxWidth: gridBottom - gridTop, className: 'axis-title' })
      : null,
    opts.xLabel
      ? text(opts.xLabel, { x: left + (width - left - 20) / 2, y: height - 10, anchor: 'middle', size: FONT.label, maxWidth: width - left - 20, className: 'axis-title' })
      : null,
  ];
  return svgDocument({ width, height, title: opts.title }, body);
}

/** Sums repeated x values and drops points without a usable x. */
function mergeBins(bins: HistogramPanel['bins']): Array<{ x: number; count: number }> {
  const sums = new Map<number, number>();
  for (const b of bins) {
    if (!b || !isFiniteNumber(b.x)) continue;
    const count = isFiniteNumber(b.count) && b.count > 0 ? b.count : 0;
    sums.set(b.x + 0, (sums.get(b.x + 0) ?? 0) + count);
  }
  return [...sums].map(([x, count]) => ({ x, count })).sort((a, b) => a.x - b.x);
}

interface BinLayout {
  isInteger: boolean;
  /** Spacing of the values (1 for integers). */
  unit: number;
  /** Width of one bar in data units: the unit, or a 1-2-5 multiple of it when values were binned. */
  width: number;
  origin: number;
  domain: [number, number];
}

function binLayout(xs: number[], maxBars: number): BinLayout {
  const isInteger = xs.every(Number.isInteger);
  const distinct = [...new Set(xs)].sort((a, b) => a - b);
  let unit = 1;
  if (!isInteger && distinct.length > 1) {
    unit = Infinity;
    for (let i = 1; i < distinct.length; i++) unit = Math.min(unit, distinct[i]! - distinct[i - 1]!);
  }
  const lo = distinct.length ? distinct[0]! : 0;
  const hi = distinct.length ? distinct[distinct.length - 1]! : 1;
  const origin = isInteger ? 0 : lo;
  const span = Math.round((hi - lo) / unit) + 1;
  let multiple = 1;
  if (span > Math.max(1, maxBars)) {
    const raw = span / Math.max(1, maxBars);
    const exponent = Math.floor(Math.log10(raw));
    multiple = [1, 2, 5, 10].map((m) => m * 10 ** exponent).find((m) => m >= raw) ?? 10 ** (exponent + 1);
  }
  const width = unit * multiple;
  const first = Math.floor((lo - origin) / width + 1e-9);
  const last = Math.floor((hi - origin) / width + 1e-9);
  let domain: [number, number] = [origin + first * width - unit / 2, origin + (last + 1) * width - unit / 2];
  // A single value or two would otherwise fill the panel with one slab.
  const minSpan = 5 * width;
  if (domain[1] - domain[0] < minSpan) {
    const pad = (minSpan - (domain[1] - domain[0])) / 2;
    domain = [domain[0] - pad, domain[1] + pad];
    if (lo >= 0 && domain[0] < -unit / 2) domain = [-unit / 2, -unit / 2 + minSpan];
  }
  return { isInteger, unit, width, origin, domain };
}

function binValues(values: Array<{ x: number; count: number }>, layout: BinLayout): Bar[] {
  const bins = new Map<number, number>();
  for (const v of values) {
    const k = Math.floor((v.x - layout.origin) / layout.width + 1e-9);
    bins.set(k, (bins.get(k) ?? 0) + v.count);
  }
  const binned = layout.width > layout.unit;
  return [...bins]
    .filter(([, count]) => count > 0)
    .sort((a, b) => a[0] - b[0])
    .map(([k, count]) => {
      const start = layout.origin + k * layout.width;
      const end = start + layout.width - layout.unit;
      return {
        from: start - layout.unit / 2,
        to: start + layout.width - layout.unit / 2,
        count,
        label: binned ? `${formatNumber(start, 6)}–${formatNumber(end, 6)}` : formatNumber(start, 6),
      };
    });
}

function yScale(panelCounts: number[][], isLog: boolean, range: [number, number]): Scale {
  const counts = panelCounts.flat();
  const max = Math.max(0, extent(counts)?.[1] ?? 0);
  if (isLog) {
    const [minPositive, maxPositive] = extent(counts.filter((c) => c > 0)) ?? [1, 10];
    const ticks = logTicks(minPositive, maxPositive, Math.max(3, Math.round((range[0] - range[1]) / 40)));
    return logScale([ticks.min / 2, ticks.max], range, ticks);
  }
  const ticks = niceTicks(0, max, Math.max(2, Math.round((range[0] - range[1]) / 50)), { integer: counts.every(Number.isInteger) });
  return linearScale([0, ticks.max], range, ticks);
}

function xScale(layout: BinLayout, range: [number, number]): Scale {
  const [lo, hi] = layout.domain;
  const count = Math.max(2, Math.round((range[1] - range[0]) / 70));
  return linearScale(layout.domain, range, niceTicks(lo, hi, count, { integer: layout.isInteger }));
}

/** A panel: heading, bars, axes. Scales are in panel-local pixels; the panel is translated into place. */
function drawPanel(name: string, bars: Bar[], box: Box, x: Scale, y: Scale, color: string, isFirstColumn: boolean, isLog: boolean, isEmpty: boolean) {
  const floor = y.range[0];
  return el('g', { class: 'panel', transform: `translate(${box.x} ${box.y})` }, [
    text(name, { x: box.width / 2, y: -8, anchor: 'middle', size: FONT.label, bold: true, maxWidth: box.width, className: 'panel-title' }),
    axis({ scale: y, orient: 'left', at: 0, gridLength: box.width, showTickLabels: isFirstColumn }),
    el(
      'g',
      { class: 'bars', fill: color },
      bars.map((b) => {
        const x0 = x.map(b.from);
        const x1 = x.map(b.to);
        const wide = x1 - x0;
        // Bars wider than a few pixels get a hairline gap so neighbours stay distinct.
        const inset = wide >= 6 ? Math.min(1, wide * 0.1) : 0;
        const top = y.map(b.count);
        return el('rect', { class: 'bar', x: x0 + inset, y: top, width: Math.max(1, wide - 2 * inset), height: Math.max(isLog ? 0 : 1, floor - top) }, el('title', {}, `${b.label}: ${formatNumber(b.count, 6)}`));
      }),
    ),
    axis({ scale: x, orient: 'bottom', at: floor }),
    isEmpty || bars.length === 0 ? emptyNotice({ x: 0, y: 0, width: box.width, height: box.height }, isEmpty ? 'No data' : isLog ? 'No nonzero counts' : 'All counts are 0') : null,
  ]);
}
