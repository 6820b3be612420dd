/**
 * Building blocks shared by every chart: an element builder that escapes by construction, text that fits its space,
 * the palette, scales, axes, legends and the document frame. Charts compose these and never write markup by hand,
 * so user text can only reach the output through `escapeXml`.
 */
import { logTickFormat, tickFormat, type LogTicks, type Ticks } from './ticks.js';

export { niceTicks, logTicks, tickFormat, logTickFormat, formatNumber, extent, MINUS, type Ticks, type LogTicks } from './ticks.js';

// ---------------------------------------------------------------------------------------------------------------
// Markup

/** Already-serialised SVG. Plain strings passed as children are text and get escaped; only Markup is inserted raw. */
export class Markup {
  constructor(readonly xml: string) {}
  toString(): string {
    return this.xml;
  }
}

export type Child = Markup | string | null | undefined | false | readonly Child[];
export type Attrs = Record<string, string | number | null | undefined | false>;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
// XML 1.0 forbids these even as character references; one of them would make the whole document unparseable.
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe inside an element or a double- or single-quoted attribute. */
export function escapeXml(text: string): string {
  return String(text).replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A coordinate with two decimals: enough for sub-pixel placement, short enough to keep files small. */
export function num(value: number): string {
  return String(Math.round(value * 100) / 100 + 0);
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

function serialise(child: Child, out: string[]): void {
  if (child === null || child === undefined || child === false) return;
  if (child instanceof Markup) out.push(child.xml);
  else if (typeof child === 'string') out.push(escapeXml(child));
  else for (const c of child) serialise(c, out);
}

/**
 * An element. Attribute values are escaped; numbers are rounded, and a non-finite number drops its attribute rather
 * than writing "NaN" into the document. Null, undefined and false attributes are left out.
 */
export function el(name: string, attrs: Attrs = {}, children: Child = []): Markup {
  if (!NAME.test(name)) throw new Error(`invalid element name ${JSON.stringify(name)}`);
  let open = `<${name}`;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (!NAME.test(key)) throw new Error(`invalid attribute name ${JSON.stringify(key)}`);
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    open += ` ${key}="${typeof value === 'number' ? num(value) : escapeXml(value)}"`;
  }
  const body: string[] = [];
  serialise(children, body);
  return new Markup(body.length ? `${open}>${body.join('')}</${name}>` : `${open}/>`);
}

/** Path data from points; non-finite points are skipped so one bad value cannot poison the path. */
export function polyline(points: ReadonlyArray<readonly [number, number]>): string {
  return points
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
    .map(([x, y], i) => `${i ? 'L' : 'M'}${num(x)},${num(y)}`)
    .join('');
}

/** A short id prefix derived from the chart's input, so two different charts inlined in one page never share ids. */
export function idPrefix(seed: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193);
  return `plot${(hash >>> 0).toString(36)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Theme

/** Okabe–Ito, reordered so the first colours are the most distinct on white; yellow and black come last. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'] as const;

export function paletteColor(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
}

// Liberation Sans has Arial's metrics, so the width estimate below holds where Helvetica and Arial are missing.
export const FONT_FAMILY = "Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";
export const FONT = { title: 18, label: 14, tick: 12, legend: 12, note: 11 } as const;
export const INK = '#222222';
export const MUTED = '#555555';
export const GRID = '#e6e6e6';
export const MISSING_COLOR = '#999999';

// ---------------------------------------------------------------------------------------------------------------
// Text

// Advance widths of Arial in em, grouped coarsely. There are no font metrics at render time, so layout works from
// this estimate and leaves a little slack.
const NARROW = new Set("iIjl.,:;'|!`");
const SEMI = new Set('frt()[]{}/\\- "');
const WIDE = new Set('mwMW@%');

export function textWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (NARROW.has(ch)) em += 0.28;
    else if (SEMI.has(ch)) em += 0.34;
    else if (WIDE.has(ch)) em += 0.88;
    else if (code >= 0x2e80) em += 1; // CJK and other full-width scripts
    else if (ch >= 'A' && ch <= 'Z') em += 0.68;
    else em += 0.56;
  }
  return em * size * (bold ? 1.08 : 1);
}

/** Whitespace collapsed, as SVG renders it anyway; names from users may contain newlines or tabs. */
function clean(text: string): string {
  return String(text ?? '').replace(/\s+/g, ' ').trim();
}

/** The text cut to fit `maxWidth` pixels, ending in an ellipsis when something was cut. */
export function truncate(text: string, maxWidth: number, size: number, bold = false): { text: string; truncated: boolean } {
  const full = clean(text);
  if (!(maxWidth > 0) || textWidth(full, size, bold) <= maxWidth) return { text: full, truncated: false };
  const chars = [...full];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(chars.slice(0, mid).join('') + '…', size, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return { text: chars.slice(0, lo).join('').trimEnd() + '…', truncated: true };
}

/** Word-wrapped lines, at most `maxLines`; the last one gets an ellipsis when text was left over. */
export function wrap(text: string, maxWidth: number, size: number, maxLines: number): { lines: string[]; truncated: boolean } {
  const lines: string[] = [];
  for (const word of clean(text).split(' ').filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && textWidth(`${last} ${word}`, size) <= maxWidth) lines[lines.length - 1] = `${last} ${word}`;
    else if (lines.length > maxLines) break;
    else lines.push(word);
  }
  let truncated = lines.length > maxLines;
  const kept = lines.slice(0, Math.max(0, maxLines)).map((line, i, all) => {
    const fit = truncate(truncated && i === all.length - 1 ? `${line}…` : line, maxWidth, size);
    truncated ||= fit.truncated;
    return fit.text;
  });
  return { lines: kept, truncated };
}

export interface TextOptions {
  x: number;
  y: number;
  size?: number;
  anchor?: 'start' | 'middle' | 'end';
  bold?: boolean;
  fill?: string;
  /** Cut with an ellipsis beyond this width; the full text stays available as a tooltip. */
  maxWidth?: number;
  /** Degrees, around (x, y). */
  rotate?: number;
  /** Centre the text vertically on y instead of sitting on it (em-based, which every renderer supports). */
  middle?: boolean;
  /** A white outline behind the glyphs, for labels drawn over lines. */
  halo?: boolean;
  className?: string;
}

export function text(content: string, o: TextOptions): Markup {
  const size = o.size ?? FONT.tick;
  const fitted = o.maxWidth === undefined ? { text: clean(content), truncated: false } : truncate(content, o.maxWidth, size, o.bold);
  return el(
    'text',
    {
      x: o.x,
      y: o.y,
      dy: o.middle ? '0.35em' : undefined,
      'font-size': size,
      'font-weight': o.bold ? 'bold' : undefined,
      'text-anchor': o.anchor && o.anchor !== 'start' ? o.anchor : undefined,
      fill: o.fill ?? INK,
      transform: o.rotate ? `rotate(${num(o.rotate)} ${num(o.x)} ${num(o.y)})` : undefined,
      stroke: o.halo ? '#ffffff' : undefined,
      'stroke-width': o.halo ? 3 : undefined,
      'stroke-linejoin': o.halo ? 'round' : undefined,
      'paint-order': o.halo ? 'stroke' : undefined,
      class: o.className,
    },
    [fitted.truncated ? el('title', {}, clean(content)) : null, fitted.text],
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Markers and swatches

export const MARKER_SHAPES = ['circle', 'square', 'triangle', 'diamond', 'triangle-down'] as const;
export type MarkerShape = (typeof MARKER_SHAPES)[number];

/** A point marker of about `size` pixels across; shapes differ per series so the chart survives greyscale printing. */
export function marker(shape: MarkerShape, cx: number, cy: number, size: number, fill: string, attrs: Attrs = {}, children: Child = []): Markup {
  const r = size / 2;
  const common = { fill, stroke: '#ffffff', 'stroke-width': 1, ...attrs };
  switch (shape) {
    case 'circle':
      return el('circle', { cx, cy, r, ...common }, children);
    case 'square':
      return el('rect', { x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8, ...common }, children);
    case 'diamond':
      return el('path', { d: `${polyline([[cx, cy - r * 1.2], [cx + r * 1.2, cy], [cx, cy + r * 1.2], [cx - r * 1.2, cy]])}Z`, ...common }, children);
    case 'triangle':
    case 'triangle-down': {
      const s = shape === 'triangle' ? 1 : -1;
      return el('path', { d: `${polyline([[cx, cy - s * r * 1.2], [cx + r * 1.1, cy + s * r * 0.8], [cx - r * 1.1, cy + s * r * 0.8]])}Z`, ...common }, children);
    }
  }
}

export type Swatch = (cx: number, cy: number) => Markup;

export const lineSwatch = (color: string, shape?: MarkerShape): Swatch => (cx, cy) =>
  el('g', {}, [
    el('line', { x1: cx - 11, y1: cy, x2: cx + 11, y2: cy, stroke: color, 'stroke-width': 2.5 }),
    shape ? marker(shape, cx, cy, 8, color) : null,
  ]);
export const rectSwatch = (color: string): Swatch => (cx, cy) => el('rect', { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: color });
export const circleSwatch = (color: string, stroke = '#ffffff'): Swatch => (cx, cy) =>
  el('circle', { cx, cy, r: 6, fill: color, stroke, 'stroke-width': 1 });
export const strokeSwatch = (width: number, color = MUTED, dashed = false): Swatch => (cx, cy) =>
  el('line', { x1: cx - 11, y1: cy, x2: cx + 11, y2: cy, stroke: color, 'stroke-width': width, 'stroke-dasharray': dashed ? '4 3' : undefined });

// ---------------------------------------------------------------------------------------------------------------
// Legend

export interface LegendEntry {
  label: string;
  swatch: Swatch;
}

/** A legend measured before it is placed, so the chart can reserve its space. */
export interface Legend {
  width: number;
  height: number;
  render(x: number, y: number): Markup;
}

const LEGEND_ROW = 20;
const SWATCH_SPACE = 30;

export function legend(entries: readonly LegendEntry[], o: { title?: string; maxWidth?: number } = {}): Legend {
  const size = FONT.legend;
  const maxLabel = Math.max(40, (o.maxWidth ?? 200) - SWATCH_SPACE);
  const labels = entries.map((e) => truncate(e.label, maxLabel, size));
  const titleFit = o.title ? truncate(o.title, maxLabel + SWATCH_SPACE, size, true) : undefined;
  const width = Math.max(
    titleFit ? textWidth(titleFit.text, size, true) : 0,
    ...labels.map((l) => SWATCH_SPACE + textWidth(l.text, size)),
  );
  const titleHeight = o.title ? LEGEND_ROW : 0;
  return {
    width: Math.ceil(width),
    height: titleHeight + entries.length * LEGEND_ROW,
    render: (x, y) =>
      el('g', { class: 'legend' }, [
        o.title ? text(o.title, { x, y: y + LEGEND_ROW / 2, size, bold: true, middle: true, maxWidth: maxLabel + SWATCH_SPACE }) : null,
        entries.map((e, i) => {
          const cy = y + titleHeight + i * LEGEND_ROW + LEGEND_ROW / 2;
          return el('g', { class: 'legend-entry' }, [
            e.swatch(x + 12, cy),
            text(e.label, { x: x + SWATCH_SPACE, y: cy, size, middle: true, maxWidth: maxLabel }),
          ]);
        }),
      ]),
  };
}

/** Several legends one below the other. */
export function stackLegends(parts: readonly Legend[], gap = 14): Legend {
  return {
    width: Math.max(0, ...parts.map((p) => p.width)),
    height: parts.reduce((h, p, i) => h + p.height + (i ? gap : 0), 0),
    render: (x, y) => {
      let top = y;
      return el(
        'g',
        {},
        parts.map((p) => {
          const m = p.render(x, top);
          top += p.height + gap;
          return m;
        }),
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Scales and axes

export interface Scale {
  readonly kind: 'linear' | 'log';
  readonly domain: readonly [number, number];
  readonly range: readonly [number, number];
  /** Labelled ticks, all inside the domain. */
  readonly ticks: readonly number[];
  /** Unlabelled ticks (log axes: 2–9 × 10ⁿ), drawn only as faint grid lines. */
  readonly minor: readonly number[];
  map(value: number): number;
  format(value: number): string;
}

function inside(domain: readonly [number, number]) {
  const [a, b] = domain[0] <= domain[1] ? domain : [domain[1], domain[0]];
  const slack = (b - a) * 1e-9;
  return (v: number) => v >= a - slack && v <= b + slack;
}

/** A number a chart can draw: user data may hold NaN, Infinity or non-numbers. */
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A linear map from `domain` to pixel `range`. Ticks outside the domain are dropped, so a chart may pass ticks of a
 * wider nice range. A zero-width domain maps everything to the middle of the range instead of dividing by zero.
 */
export function linearScale(domain: readonly [number, number], range: readonly [number, number], ticks: Ticks): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const within = inside(domain);
  return {
    kind: 'linear',
    domain,
    range,
    ticks: ticks.ticks.filter(within),
    minor: [],
    map: (v) => (Number.isFinite(v) && span !== 0 && Number.isFinite(span) ? r0 + ((v - d0) / span) * (r1 - r0) : (r0 + r1) / 2),
    format: tickFormat(ticks.ticks, ticks.step),
  };
}

/** A log₁₀ map; values at or below zero land on the low end of the range (callers should not draw them). */
export function logScale(domain: readonly [number, number], range: readonly [number, number], ticks: LogTicks): Scale {
  const l0 = Math.log10(domain[0] > 0 ? domain[0] : 1);
  const l1 = Math.log10(domain[1] > 0 ? domain[1] : 10);
  const [r0, r1] = range;
  const within = inside(domain);
  return {
    kind: 'log',
    domain,
    range,
    ticks: ticks.ticks.filter(within),
    minor: ticks.minor.filter(within),
    map: (v) => (v > 0 && Number.isFinite(v) && l1 !== l0 ? r0 + ((Math.log10(v) - l0) / (l1 - l0)) * (r1 - r0) : r0),
    format: logTickFormat(ticks.ticks),
  };
}

const TICK_LENGTH = 5;
const TICK_GAP = 4;
const TITLE_GAP = 10;

/** Width of the widest tick label of a scale. */
export function tickLabelWidth(scale: Scale): number {
  return Math.max(0, ...scale.ticks.map((t) => textWidth(scale.format(t), FONT.tick)));
}

/**
 * The width a left axis needs outside the plot area: ticks, tick labels and title. Size the margins with these
 * before drawing, so labels are never clipped by the canvas.
 */
export function leftAxisWidth(scale: Scale, hasTitle = true, showTickLabels = true): number {
  return TICK_LENGTH + TICK_GAP + (showTickLabels ? tickLabelWidth(scale) : 0) + (hasTitle ? TITLE_GAP + FONT.label : 0) + 4;
}

/** The height a bottom axis needs below the plot area. */
export function bottomAxisHeight(hasTitle = true, showTickLabels = true): number {
  return TICK_LENGTH + TICK_GAP + (showTickLabels ? FONT.tick : 0) + (hasTitle ? TITLE_GAP + FONT.label : 0) + 4;
}

export interface AxisOptions {
  scale: Scale;
  orient: 'left' | 'bottom';
  /** Where the axis line sits: the y of a bottom axis, the x of a left axis. */
  at: number;
  title?: string;
  /** How far grid lines reach into the plot from the axis line; 0 draws none. */
  gridLength?: number;
  showTickLabels?: boolean;
  /** Where the axis line starts and ends, when it should span more than the scale's range (padded scales). */
  extent?: readonly [number, number];
}

/**
 * An axis: line, ticks, labels, optional grid lines and title. When labels would collide, every second (third, …)
 * label is kept; the ticks themselves stay.
 */
export function axis(o: AxisOptions): Markup {
  const { scale, orient, at } = o;
  const isLeft = orient === 'left';
  const sign = isLeft ? -1 : 1;
  const showLabels = o.showTickLabels ?? true;
  const positions = scale.ticks.map((t) => scale.map(t));
  const labels = scale.ticks.map((t) => scale.format(t));
  const spacing = positions.length > 1 ? Math.abs(positions[1]! - positions[0]!) : Infinity;
  const needed = isLeft ? FONT.tick * 1.3 : Math.max(0, ...labels.map((l) => textWidth(l, FONT.tick))) + 8;
  const every = spacing >= needed ? 1 : Math.ceil(needed / Math.max(spacing, 1e-6));
  const grid = o.gridLength ?? 0;
  const line = (p: number, from: number, to: number, attrs: Attrs) =>
    isLeft ? el('line', { x1: from, y1: p, x2: to, y2: p, ...attrs }) : el('line', { x1: p, y1: from, x2: p, y2: to, ...attrs });
  const titleOffset = (isLeft ? leftAxisWidth(scale, false, showLabels) : bottomAxisHeight(false, showLabels)) - 4 + TITLE_GAP;
  const [e0, e1] = o.extent ?? scale.range;
  const mid = (e0 + e1) / 2;
  return el('g', { class: `axis axis-${orient}` }, [
    grid
      ? el('g', { class: 'grid', stroke: GRID, 'stroke-width': 1 }, [
          scale.minor.map((t) => line(scale.map(t), at, at - sign * grid, { 'stroke-opacity': 0.5 })),
          positions.map((p) => line(p, at, at - sign * grid, {})),
        ])
      : null,
    isLeft
      ? el('line', { x1: at, y1: e0, x2: at, y2: e1, stroke: INK, class: 'axis-line' })
      : el('line', { x1: e0, y1: at, x2: e1, y2: at, stroke: INK, class: 'axis-line' }),
    el('g', { class: 'ticks', stroke: INK }, positions.map((p) => line(p, at, at + sign * TICK_LENGTH, {}))),
    showLabels
      ? el(
          'g',
          { class: 'tick-labels' },
          positions.map((p, i) =>
            i % every
              ? null
              : isLeft
                ? text(labels[i]!, { x: at - TICK_LENGTH - TICK_GAP, y: p, anchor: 'end', middle: true, className: 'tick-label' })
                : text(labels[i]!, { x: p, y: at + TICK_LENGTH + TICK_GAP + FONT.tick * 0.8, anchor: 'middle', className: 'tick-label' }),
          ),
        )
      : null,
    o.title
      ? isLeft
        ? text(o.title, { x: at - titleOffset, y: mid, anchor: 'middle', rotate: -90, size: FONT.label, maxWidth: Math.abs(e1 - e0), className: 'axis-title' })
        : text(o.title, { x: mid, y: at + titleOffset + FONT.label * 0.8, anchor: 'middle', size: FONT.label, maxWidth: Math.abs(e1 - e0), className: 'axis-title' })
      : null,
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Document and layout

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Height of the band at the top that holds the chart title. */
export const TITLE_BAND = 40;

/** Width and height from user options: non-numbers and absurd sizes fall back to the defaults or are clamped. */
export function canvasSize(width: number | undefined, height: number | undefined, defaults: { width: number; height: number }) {
  const pick = (v: number | undefined, d: number) => Math.round(Math.min(4000, Math.max(240, typeof v === 'number' && Number.isFinite(v) ? v : d)));
  return { width: pick(width, defaults.width), height: pick(height, defaults.height) };
}

/** The chart title, centred in the title band and cut to the canvas width. */
export function chartTitle(title: string, width: number): Markup {
  return text(title, { x: width / 2, y: 26, size: FONT.title, bold: true, anchor: 'middle', maxWidth: width - 24, className: 'chart-title' });
}

/** A grey message in the middle of a box, for charts with nothing to draw. */
export function emptyNotice(box: Box, message: string): Markup {
  return text(message, { x: box.x + box.width / 2, y: box.y + box.height / 2, anchor: 'middle', middle: true, size: FONT.label, fill: MUTED, className: 'placeholder' });
}

/**
 * A standalone SVG document: XML declaration, namespace, a viewBox so it scales, a white background (slides are not
 * always white), and the title as the document's accessible name.
 */
export function svgDocument(o: { width: number; height: number; title: string; description?: string }, body: Child): string {
  const root = el(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      viewBox: `0 0 ${o.width} ${o.height}`,
      width: o.width,
      height: o.height,
      role: 'img',
      'font-family': FONT_FAMILY,
    },
    [
      el('title', {}, clean(o.title)),
      o.description ? el('desc', {}, clean(o.description)) : null,
      el('rect', { x: 0, y: 0, width: o.width, height: o.height, fill: '#ffffff' }),
      body,
    ],
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.xml}\n`;
}
