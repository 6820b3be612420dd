/**
 * Node-link drawing of an ego network from precomputed positions (any coordinate range; y grows downwards as on
 * screen). The positions are scaled uniformly into the canvas, so the layout's proportions are kept.
 *
 * Choices a caller may notice:
 * - Node ids are unique: a repeated id keeps its first node. Edges to unknown ids are skipped. Repeated edges between
 *   the same pair (the same direction, for a directed graph) are drawn once with their weights added.
 * - When both directions of a pair exist, each is drawn as an arc bending to its own side, so they read as two.
 * - Stroke width grows with √|weight| (area-true); negative weights are dashed. Heavier edges are drawn on top.
 * - Groups get palette colours in alphabetical order. With more groups than colours, the most frequent keep a colour
 *   and the rest share a grey "other" (each node's tooltip still names its group).
 * - A label goes on the side of its node (right, left, below, above) that is clearest of the node's edges; long
 *   labels are cut, with the full text as tooltip. A self-loop goes into the widest gap between the node's edges.
 * - A node with a non-finite position is drawn at the centre of the layout.
 */
import {
  FONT,
  MISSING_COLOR,
  PALETTE,
  TITLE_BAND,
  canvasSize,
  chartTitle,
  circleSwatch,
  el,
  extent,
  formatNumber,
  legend,
  niceTicks,
  num,
  paletteColor,
  emptyNotice,
  isFiniteNumber,
  polyline,
  stackLegends,
  strokeSwatch,
  svgDocument,
  text,
  textWidth,
  truncate,
  type Legend,
} from './svg.js';

export interface NetworkNode {
  id: string;
  label: string;
  x: number;
  y: number;
  group?: string;
  /** The centre of the ego network: drawn larger, outlined, with a bold label. */
  emphasis?: boolean;
}

export interface NetworkEdge {
  source: string;
  target: string;
  weight: number;
}

export interface NetworkOptions {
  title: string;
  directed: boolean;
  nodes: NetworkNode[];
  edges: NetworkEdge[];
  width?: number;
  height?: number;
  /** Heading of the colour legend (e.g. "cell type"). */
  legendTitle?: string;
}

const EDGE_COLOR = '#6f6f6f';
const MAX_STROKE = 7;
const MIN_STROKE = 0.8;
const LABEL_MAX_WIDTH = 110;
const OTHER = 'other';

type Point = [number, number];

interface PlacedNode {
  id: string;
  label: string;
  group: string | undefined;
  isEmphasised: boolean;
  color: string;
  r: number;
  p: Point;
}

const sub = (a: Point, b: Point): Point => [a[0] - b[0], a[1] - b[1]];
const add = (a: Point, b: Point): Point => [a[0] + b[0], a[1] + b[1]];
const mul = (a: Point, k: number): Point => [a[0] * k, a[1] * k];
const length = (a: Point) => Math.hypot(a[0], a[1]);
const unit = (a: Point, fallback: Point = [1, 0]): Point => (length(a) > 1e-9 ? mul(a, 1 / length(a)) : fallback);
const rotate = (a: Point, degrees: number): Point => {
  const t = (degrees * Math.PI) / 180;
  return [a[0] * Math.cos(t) - a[1] * Math.sin(t), a[0] * Math.sin(t) + a[1] * Math.cos(t)];
};

export function networkDiagram(opts: NetworkOptions): string {
  const { width, height } = canvasSize(opts.width, opts.height, { width: 760, height: 560 });
  const nodes = uniqueNodes(opts.nodes ?? []);
  const edges = mergeEdges(opts.edges ?? [], new Set(nodes.map((n) => n.id)), Boolean(opts.directed));
  const colors = groupColors(nodes);
  const stroke = strokeScale(edges.map((e) => e.weight));

  const legends: Legend[] = [];
  if (colors.entries.length) legends.push(legend(colors.entries, { title: opts.legendTitle ?? 'group', maxWidth: 190 }));
  if (edges.length) legends.push(legend(stroke.entries, { title: 'weight', maxWidth: 190 }));
  const key = legends.length ? stackLegends(legends) : undefined;

  const area = { x: 16, y: TITLE_BAND + 10, width: width - 32 - (key ? key.width + 28 : 0), height: height - TITLE_BAND - 26 };
  const r = nodes.length <= 12 ? 11 : nodes.length <= 30 ? 9 : nodes.length <= 80 ? 7 : 5;
  const labels = new Map(nodes.map((n) => [n.id, truncate(n.label, LABEL_MAX_WIDTH, FONT.legend, n.emphasis)]));
  const labelSpace = Math.max(0, extent([...labels.values()].map((l) => textWidth(l.text, FONT.legend, true)))?.[1] ?? 0);
  const placed = place(nodes, area, r, labelSpace, colors.colorOf);
  const byId = new Map(placed.map((n) => [n.id, n]));
  const centre = placed.find((n) => n.isEmphasised)?.p ?? [area.x + area.width / 2, area.y + area.height / 2];
  const opposite = new Set(edges.map((e) => `${e.source}\u0000${e.target}`));
  const neighbours = new Map<string, Point[]>();
  for (const e of edges) {
    if (e.source === e.target) continue;
    for (const [a, b] of [[e.source, e.target], [e.target, e.source]] as const) {
      const list = neighbours.get(a) ?? [];
      list.push(byId.get(b)!.p);
      neighbours.set(a, list);
    }
  }

  const loops = new Map(edges.filter((e) => e.source === e.target).map((e) => [e.source, freeDirection(byId.get(e.source)!.p, neighbours.get(e.source) ?? [], centre)]));
  const drawnEdges = [...edges]
    .sort((a, b) => Math.abs(a.weight) - Math.abs(b.weight))
    .map((e) => {
      const s = byId.get(e.source)!;
      const t = byId.get(e.target)!;
      const isCurved = Boolean(opts.directed) && e.source !== e.target && opposite.has(`${e.target}\u0000${e.source}`);
      const tip = `${s.label} ${opts.directed ? '→' : '—'} ${t.label}: ${formatNumber(e.weight, 6)}`;
      return drawEdge(s, t, stroke.width(e.weight), e.weight < 0, isCurved, Boolean(opts.directed), s === t ? loops.get(s.id) : undefined, tip);
    });

  const body = [
    chartTitle(opts.title, width),
    nodes.length === 0 ? emptyNotice(area, 'No nodes') : null,
    el('g', { class: 'edges', fill: 'none', stroke: EDGE_COLOR, 'stroke-linecap': 'round' }, drawnEdges),
    el(
      'g',
      { class: 'nodes' },
      placed.map((n) =>
        el(
          'circle',
          {
            class: n.isEmphasised ? 'node emphasis' : 'node',
            cx: n.p[0],
            cy: n.p[1],
            r: n.r,
            fill: n.color,
            stroke: n.isEmphasised ? '#000000' : '#333333',
            'stroke-width': n.isEmphasised ? 2.5 : 0.8,
          },
          el('title', {}, n.group ? `${n.label} (${n.group})` : n.label),
        ),
      ),
    ),
    el(
      'g',
      { class: 'node-labels' },
      placed.map((n) => {
        const side = labelSide(n.p, [...(neighbours.get(n.id) ?? []).map((o) => sub(o, n.p)), ...(loops.has(n.id) ? [loops.get(n.id)!] : [])], centre);
        const gap = n.r + 4;
        return text(n.label, {
          x: n.p[0] + (side === 'right' ? gap : side === 'left' ? -gap : 0),
          y: n.p[1] + (side === 'below' ? gap + FONT.legend / 2 : side === 'above' ? -gap - FONT.legend / 2 : 0),
          anchor: side === 'right' ? 'start' : side === 'left' ? 'end' : 'middle',
          middle: true,
          size: FONT.legend,
          bold: n.isEmphasised,
          maxWidth: LABEL_MAX_WIDTH,
          halo: true,
          className: 'node-label',
        });
      }),
    ),
    key ? key.render(width - 16 - key.width, area.y) : null,
  ];
  return svgDocument({ width, height, title: opts.title }, body);
}

function uniqueNodes(nodes: NetworkNode[]): NetworkNode[] {
  const seen = new Set<string>();
  return nodes.filter((n) => {
    if (!n || seen.has(String(n.id))) return false;
    seen.add(String(n.id));
    return true;
  }).map((n) => ({ ...n, id: String(n.id), label: String(n.label ?? n.id) }));
}

function mergeEdges(edges: NetworkEdge[], ids: Set<string>, isDirected: boolean): NetworkEdge[] {
  const merged = new Map<string, NetworkEdge>();
  for (const e of edges) {
    if (!e || !ids.has(String(e.source)) || !ids.has(String(e.target))) continue;
    let [source, target] = [String(e.source), String(e.target)];
    if (!isDirected && source > target) [source, target] = [target, source];
    const key = `${source}\u0000${target}`;
    const weight = isFiniteNumber(e.weight) ? e.weight : 0;
    const prior = merged.get(key);
    merged.set(key, { source, target, weight: (prior?.weight ?? 0) + weight });
  }
  return [...merged.values()];
}

function groupColors(nodes: NetworkNode[]) {
  const counts = new Map<string, number>();
  let ungrouped = 0;
  for (const n of nodes) {
    if (n.group === undefined || n.group === null || n.group === '') ungrouped++;
    else counts.set(String(n.group), (counts.get(String(n.group)) ?? 0) + 1);
  }
  const byFrequency = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([g]) => g);
  const isCrowded = byFrequency.length > PALETTE.length;
  const shown = (isCrowded ? byFrequency.slice(0, PALETTE.length - 1) : byFrequency).sort();
  const color = new Map(shown.map((g, i) => [g, paletteColor(i)]));
  const entries = shown.map((g) => ({ label: g, swatch: circleSwatch(color.get(g)!, '#333333') }));
  if (isCrowded) entries.push({ label: `${OTHER} (${byFrequency.length - shown.length} groups)`, swatch: circleSwatch(MISSING_COLOR, '#333333') });
  if (ungrouped && counts.size) entries.push({ label: 'no group', swatch: circleSwatch(MISSING_COLOR, '#333333') });
  return {
    entries,
    colorOf: (group: string | undefined): string =>
      group === undefined || group === null || group === '' ? (counts.size ? MISSING_COLOR : paletteColor(0)) : (color.get(String(group)) ?? MISSING_COLOR),
  };
}

/** Width by √|weight|, the largest weight at MAX_STROKE; a legend of a few round weights on the same scale. */
function strokeScale(weights: number[]) {
  const magnitudes = weights.map(Math.abs);
  const [min, max] = extent(magnitudes) ?? [0, 0];
  const isUniform = !(max > min);
  const width = (w: number) => (isUniform ? (max > 0 ? 2 : MIN_STROKE) : Math.max(MIN_STROKE, MAX_STROKE * Math.sqrt(Math.abs(w) / max)));
  let samples: number[];
  if (isUniform) samples = [max];
  else {
    // Two to four evenly spaced round weights, all of them drawn at widths that occur in the diagram.
    samples = niceTicks(0, max, 3, { integer: magnitudes.every(Number.isInteger) }).ticks.filter((t) => t > 0 && t <= max);
    if (samples.length < 2) samples = niceTicks(0, max, 5, { integer: magnitudes.every(Number.isInteger) }).ticks.filter((t) => t > 0 && t <= max);
    if (!samples.length) samples = [max];
  }
  const entries = samples.map((s) => ({ label: formatNumber(s), swatch: strokeSwatch(width(s)) }));
  if (weights.some((w) => w < 0)) entries.push({ label: 'negative (dashed)', swatch: strokeSwatch(2, undefined, true) });
  return { width, entries };
}

/** Fits positions into the area, leaving room for labels on both sides and self-loops above and below. */
function place(nodes: NetworkNode[], area: { x: number; y: number; width: number; height: number }, r: number, labelSpace: number, colorOf: (g: string | undefined) => string): PlacedNode[] {
  const valid = nodes.filter((n) => isFiniteNumber(n.x) && isFiniteNumber(n.y));
  const [minX, maxX] = extent(valid.map((n) => n.x)) ?? [0, 0];
  const [minY, maxY] = extent(valid.map((n) => n.y)) ?? [0, 0];
  const bigR = r * 1.6;
  const padX = Math.min(bigR + 6 + labelSpace, area.width / 3);
  const padY = Math.min(bigR + r * 2.8, area.height / 3);
  const innerW = Math.max(1, area.width - 2 * padX);
  const innerH = Math.max(1, area.height - 2 * padY);
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  const scales = [spanX > 0 ? innerW / spanX : Infinity, spanY > 0 ? innerH / spanY : Infinity];
  let k = Math.min(...scales);
  if (!Number.isFinite(k)) k = 0;
  const cx = area.x + area.width / 2;
  const cy = area.y + area.height / 2;
  const midX = (minX + maxX) / 2;
  const midY = (minY + maxY) / 2;
  return nodes.map((n) => {
    const isEmphasised = Boolean(n.emphasis);
    const p: Point = isFiniteNumber(n.x) && isFiniteNumber(n.y) ? [cx + (n.x - midX) * k, cy + (n.y - midY) * k] : [cx, cy];
    return { id: n.id, label: n.label, group: n.group, isEmphasised, color: colorOf(n.group), r: isEmphasised ? bigR : r, p };
  });
}

function arrowhead(tip: Point, direction: Point, strokeWidth: number) {
  const size = 7 + 1.3 * strokeWidth;
  const back = sub(tip, mul(direction, size));
  const side = mul([-direction[1], direction[0]], size * 0.45);
  return { size, markup: el('path', { class: 'arrow', d: `${polyline([tip, add(back, side), sub(back, side)])}Z`, fill: EDGE_COLOR, stroke: 'none' }) };
}

/**
 * Where a self-loop goes: the middle of the widest angle between the node's edges, so the loop does not hide under
 * them (the centre of an ego network has edges all around); away from the centre for a node without edges.
 */
function freeDirection(p: Point, others: Point[], centre: Point): Point {
  if (!others.length) return unit(sub(p, centre), [0, -1]);
  const angles = others.map((o) => Math.atan2(o[1] - p[1], o[0] - p[0])).sort((a, b) => a - b);
  let best = { gap: -1, middle: -Math.PI / 2 };
  angles.forEach((a, i) => {
    const next = i + 1 < angles.length ? angles[i + 1]! : angles[0]! + 2 * Math.PI;
    if (next - a > best.gap) best = { gap: next - a, middle: (a + next) / 2 };
  });
  return [Math.cos(best.middle), Math.sin(best.middle)];
}

type Side = 'right' | 'left' | 'below' | 'above';
const SIDES: Array<[Side, number]> = [['right', 0], ['left', Math.PI], ['below', Math.PI / 2], ['above', -Math.PI / 2]];

/**
 * The side of a node for its label: the one farthest in angle from the node's edges and self-loop, so labels of
 * hubs (the ego) are not written over their edges. Without edges, the side away from the centre.
 */
function labelSide(p: Point, directions: Point[], centre: Point): Side {
  if (!directions.length) return p[0] < centre[0] - 1 ? 'left' : 'right';
  const angles = directions.map((d) => Math.atan2(d[1], d[0]));
  const clearance = (side: number) =>
    extent(
      angles.map((a) => {
        const diff = Math.abs(a - side) % (2 * Math.PI);
        return diff > Math.PI ? 2 * Math.PI - diff : diff;
      }),
    )![0];
  // Any clearance past 90° is clear enough; then beside beats above or below (horizontal text next to a node reads
  // naturally), and the side away from the centre beats the side towards it.
  const outward = p[0] < centre[0] - 1 ? 'left' : 'right';
  let best = SIDES[0]!;
  let bestScore = -1;
  for (const side of SIDES) {
    const bonus = side[0] === outward ? 0.4 : side[0] === 'right' || side[0] === 'left' ? 0.3 : 0;
    const score = Math.min(clearance(side[1]), Math.PI / 2) + bonus;
    if (score > bestScore + 1e-9) [best, bestScore] = [side, score];
  }
  return best[0];
}

function drawEdge(s: PlacedNode, t: PlacedNode, strokeWidth: number, isNegative: boolean, isCurved: boolean, isDirected: boolean, loopDirection: Point | undefined, tooltip: string) {
  const common = {
    'stroke-width': strokeWidth,
    'stroke-opacity': 0.75,
    'stroke-dasharray': isNegative ? `${num(strokeWidth * 2 + 2)} ${num(strokeWidth + 2)}` : undefined,
  };
  if (loopDirection) return selfLoop(s, strokeWidth, isDirected, loopDirection, common, tooltip);
  const chord = sub(t.p, s.p);
  const distance = length(chord);
  // The perpendicular flips with the direction, so s→t and t→s bend to opposite sides.
  const normal: Point = unit([-chord[1], chord[0]], [0, -1]);
  const control = isCurved ? add(add(s.p, mul(chord, 0.5)), mul(normal, Math.min(40, Math.max(10, distance * 0.18)))) : add(s.p, mul(chord, 0.5));
  const start = add(s.p, mul(unit(sub(control, s.p)), s.r + 1));
  const endDirection = unit(sub(t.p, control));
  const tip = sub(t.p, mul(endDirection, t.r + 1));
  const head = isDirected ? arrowhead(tip, endDirection, strokeWidth) : undefined;
  // The line stops inside the arrowhead, so a thick stroke does not poke through its point.
  const end = head ? sub(tip, mul(endDirection, head.size * 0.7)) : tip;
  const d = isCurved ? `M${num(start[0])},${num(start[1])}Q${num(control[0])},${num(control[1])} ${num(end[0])},${num(end[1])}` : polyline([start, end]);
  return el('g', {}, [el('path', { class: 'edge', d, ...common }, el('title', {}, tooltip)), head?.markup]);
}

function selfLoop(n: PlacedNode, strokeWidth: number, isDirected: boolean, out: Point, common: Record<string, number | string | undefined>, tooltip: string) {
  // A cubic with both control points at `reach` peaks at about ¾ of it: the loop stands ~28 px clear of the node.
  const reach = (n.r + 28) / 0.75;
  const start = add(n.p, mul(rotate(out, -28), n.r));
  const tip = add(n.p, mul(rotate(out, 28), n.r + 1));
  const c1 = add(n.p, mul(rotate(out, -38), reach));
  const c2 = add(n.p, mul(rotate(out, 38), reach));
  const endDirection = unit(sub(tip, c2));
  const head = isDirected ? arrowhead(tip, endDirection, strokeWidth) : undefined;
  const end = head ? sub(tip, mul(endDirection, head.size * 0.7)) : tip;
  const d = `M${num(start[0])},${num(start[1])}C${num(c1[0])},${num(c1[1])} ${num(c2[0])},${num(c2[1])} ${num(end[0])},${num(end[1])}`;
  return el('g', {}, [el('path', { class: 'edge self-loop', d, ...common }, el('title', {}, tooltip)), head?.markup]);
}
