import { describe, it, expect } from 'vitest';
import { networkDiagram, type NetworkOptions } from './network.js';
import { byClass, expectSound, findAll, tooltip, type SvgNode } from './test/svg-tree.js';

const INJECTION = '</text><script>alert(1)</script>';

type Node = NetworkOptions['nodes'][number];
const node = (id: string, x: number, y: number, extra: Partial<Node> = {}): Node => ({ id, label: id, x, y, ...extra });
const diagram = (o: Partial<NetworkOptions>) => networkDiagram({ title: 't', directed: true, nodes: [], edges: [], ...o });

const ego: NetworkOptions = {
  title: 'AVAL within 1 hop',
  directed: true,
  nodes: [
    node('AVAL', 0, 0, { group: 'interneuron', emphasis: true }),
    node('AVAR', 1, 0, { group: 'interneuron' }),
    node('PVCL', -1, 0.2, { group: 'interneuron' }),
    node('DA01', 0, 1, { group: 'motor' }),
    node('ASHL', 0.3, -1, { group: 'sensory' }),
  ],
  edges: [
    { source: 'AVAL', target: 'AVAR', weight: 16 },
    { source: 'AVAR', target: 'AVAL', weight: 4 },
    { source: 'PVCL', target: 'AVAL', weight: 9 },
    { source: 'AVAL', target: 'DA01', weight: 1 },
    { source: 'ASHL', target: 'AVAL', weight: 2 },
    { source: 'AVAL', target: 'AVAL', weight: 3 },
  ],
  legendTitle: 'cell type',
};

const edges = (root: SvgNode) => byClass(root, 'edge', 'path');
const nodes = (root: SvgNode) => byClass(root, 'node', 'circle');
const arrows = (root: SvgNode) => byClass(root, 'arrow', 'path');

describe('networkDiagram', () => {
  it('draws every node and edge, an arrowhead per directed edge and a loop for a self-connection', () => {
    const root = expectSound(networkDiagram(ego));
    expect(nodes(root)).toHaveLength(5);
    expect(edges(root)).toHaveLength(6);
    expect(arrows(root)).toHaveLength(6);
    expect(byClass(root, 'self-loop')).toHaveLength(1);
    expect(byClass(root, 'node-label').map((l) => l.text).sort()).toEqual(['ASHL', 'AVAL', 'AVAR', 'DA01', 'PVCL']);
  });

  it('draws both directions of a pair as two arcs bending to opposite sides', () => {
    const root = expectSound(networkDiagram(ego));
    const pair = edges(root).filter((e) => /^(AVAL → AVAR|AVAR → AVAL):/.test(tooltip(e)!));
    expect(pair).toHaveLength(2);
    const controls = pair.map((e) => e.attrs.d!.match(/Q([-\d.]+),([-\d.]+)/)!.slice(1).map(Number));
    // AVAL and AVAR lie on one horizontal line: one arc bends above it, the other below.
    const lineY = Number(nodes(root).find((n) => tooltip(n)!.startsWith('AVAL'))!.attrs.cy);
    expect(Math.sign(controls[0]![1]! - lineY)).toBe(-Math.sign(controls[1]![1]! - lineY));
    // A one-way edge stays straight.
    expect(edges(root).find((e) => tooltip(e)!.startsWith('PVCL'))!.attrs.d).not.toMatch(/[QC]/);
  });

  it('leaves out arrowheads and curves for an undirected graph, merging the two listings of a pair', () => {
    const root = expectSound(networkDiagram({ ...ego, directed: false }));
    expect(arrows(root)).toHaveLength(0);
    expect(edges(root)).toHaveLength(5);
    const pair = edges(root).find((e) => /^(AVAL — AVAR|AVAR — AVAL):/.test(tooltip(e)!))!;
    expect(tooltip(pair)).toMatch(/: 20$/);
    expect(pair.attrs.d).not.toMatch(/Q/);
  });

  it('scales stroke width with the square root of the weight and shows a few weights in the legend', () => {
    const root = expectSound(networkDiagram(ego));
    const width = (prefix: string) => Number(edges(root).find((e) => tooltip(e)!.startsWith(prefix))!.attrs['stroke-width']);
    expect(width('AVAL → AVAR') / width('AVAR → AVAL')).toBeCloseTo(2, 1); // √16 / √4
    expect(width('PVCL') / width('AVAR → AVAL')).toBeCloseTo(1.5, 1); // √9 / √4
    const weightLegend = byClass(root, 'legend')[1]!;
    const labels = findAll(weightLegend, (n) => n.name === 'text').map((t) => t.text);
    expect(labels[0]).toBe('weight');
    expect(labels.slice(1).length).toBeGreaterThanOrEqual(2);
    for (const l of labels.slice(1)) expect(l).toMatch(/^\d+$/);
  });

  it('colours nodes by group, lists the groups under the legend title and draws the centre larger', () => {
    const root = expectSound(networkDiagram(ego));
    const groupLegend = byClass(root, 'legend')[0]!;
    expect(findAll(groupLegend, (n) => n.name === 'text').map((t) => t.text)).toEqual(['cell type', 'interneuron', 'motor', 'sensory']);
    const fill = (id: string) => nodes(root).find((n) => tooltip(n)!.startsWith(id))!.attrs.fill;
    expect(fill('AVAR')).toBe(fill('PVCL'));
    expect(new Set([fill('AVAR'), fill('DA01'), fill('ASHL')]).size).toBe(3);
    const centre = byClass(root, 'emphasis', 'circle');
    expect(centre).toHaveLength(1);
    expect(Number(centre[0]!.attrs.r)).toBeGreaterThan(Number(nodes(root).find((n) => tooltip(n)!.startsWith('AVAR'))!.attrs.r));
    expect(byClass(root, 'node-label').find((l) => l.text === 'AVAL')!.attrs['font-weight']).toBe('bold');
  });

  it('fits any coordinate range inside the canvas, keeping its proportions', () => {
    const root = expectSound(diagram({ width: 600, height: 400, nodes: [node('a', 1e6, -3e6), node('b', 1e6 + 50, -3e6), node('c', 1e6, -3e6 + 100)] }));
    const [a, b, c] = ['a', 'b', 'c'].map((id) => nodes(root).find((n) => tooltip(n) === id)!).map((n) => [Number(n.attrs.cx), Number(n.attrs.cy)] as const);
    for (const [x, y] of [a!, b!, c!]) {
      expect(x).toBeGreaterThan(0);
      expect(x).toBeLessThan(600);
      expect(y).toBeGreaterThan(40);
      expect(y).toBeLessThan(400);
    }
    expect((c![1] - a![1]) / (b![0] - a![0])).toBeCloseTo(2, 1);
  });

  it('gives the most frequent groups a colour and the rest a shared grey when there are more groups than colours', () => {
    const many = Array.from({ length: 12 }, (_, i) => node(`n${i}`, i, i % 3, { group: `type${String(i % 10).padStart(2, '0')}` }));
    const root = expectSound(diagram({ nodes: many }));
    const entries = findAll(byClass(root, 'legend')[0]!, (n) => n.name === 'text').map((t) => t.text);
    expect(entries).toHaveLength(1 + 8);
    expect(entries.slice(1, 3)).toEqual(['type00', 'type01']);
    expect(entries.at(-1)).toBe('other (3 groups)');
  });

  it('escapes labels, groups and titles, and cuts long labels with the full text as a tooltip', () => {
    const long = `${'VeryLongCellName'.repeat(6)}${INJECTION}`;
    const root = expectSound(
      diagram({ title: INJECTION, legendTitle: INJECTION, nodes: [node('a', 0, 0, { label: long, group: INJECTION }), node(INJECTION, 1, 1, { group: 'x' })], edges: [{ source: 'a', target: INJECTION, weight: 1 }] }),
    );
    const label = byClass(root, 'node-label').find((l) => l.text.startsWith('VeryLong'))!;
    expect(label.text.endsWith('…')).toBe(true);
    expect(tooltip(label)).toBe(long);
    expect(edges(root)).toHaveLength(1);
  });

  it.each<[string, Partial<NetworkOptions>, { nodes: number; edges: number }]>([
    ['no nodes', {}, { nodes: 0, edges: 0 }],
    ['a single node', { nodes: [node('a', 5, 5)] }, { nodes: 1, edges: 0 }],
    ['a single node with a self-loop', { nodes: [node('a', 5, 5)], edges: [{ source: 'a', target: 'a', weight: 2 }] }, { nodes: 1, edges: 1 }],
    ['nodes on one spot', { nodes: [node('a', 1, 1), node('b', 1, 1)], edges: [{ source: 'a', target: 'b', weight: 1 }, { source: 'b', target: 'a', weight: 1 }] }, { nodes: 2, edges: 2 }],
    ['nodes on one line', { nodes: [node('a', 0, 3), node('b', 10, 3), node('c', 20, 3)] }, { nodes: 3, edges: 0 }],
    ['non-finite positions', { nodes: [node('a', NaN, 0), node('b', Infinity, 1), node('c', 0, 1)] }, { nodes: 3, edges: 0 }],
    ['edges to unknown nodes', { nodes: [node('a', 0, 0)], edges: [{ source: 'a', target: 'zz', weight: 1 }] }, { nodes: 1, edges: 0 }],
    ['repeated ids and edges', { nodes: [node('a', 0, 0), node('a', 9, 9), node('b', 1, 1)], edges: [{ source: 'a', target: 'b', weight: 1 }, { source: 'a', target: 'b', weight: 2 }] }, { nodes: 2, edges: 1 }],
    ['zero, negative, broken and huge weights', { nodes: [node('a', 0, 0), node('b', 1, 0), node('c', 0, 1)], edges: [{ source: 'a', target: 'b', weight: 0 }, { source: 'b', target: 'c', weight: -3 }, { source: 'c', target: 'a', weight: NaN }, { source: 'a', target: 'c', weight: 1e9 }] }, { nodes: 3, edges: 4 }],
    ['equal weights', { nodes: [node('a', 0, 0), node('b', 1, 0)], edges: [{ source: 'a', target: 'b', weight: 5 }, { source: 'b', target: 'a', weight: 5 }] }, { nodes: 2, edges: 2 }],
    ['nodes without groups', { nodes: [node('a', 0, 0), node('b', 1, 0, { group: 'g' })] }, { nodes: 2, edges: 0 }],
    ['absurd sizes', { width: Infinity, height: 0, nodes: [node('a', 0, 0)] }, { nodes: 1, edges: 0 }],
  ])('copes with %s', (_, o, expected) => {
    const root = expectSound(diagram(o));
    expect(nodes(root)).toHaveLength(expected.nodes);
    expect(edges(root)).toHaveLength(expected.edges);
  });

  it('dashes negative weights and says so in the legend', () => {
    const root = expectSound(diagram({ nodes: [node('a', 0, 0), node('b', 1, 0)], edges: [{ source: 'a', target: 'b', weight: -2 }, { source: 'b', target: 'a', weight: 4 }] }));
    expect(edges(root).filter((e) => e.attrs['stroke-dasharray'])).toHaveLength(1);
    expect(findAll(root, (n) => n.name === 'text' && n.text === 'negative (dashed)')).toHaveLength(1);
  });

  it('says so when there are no nodes', () => {
    expect(byClass(expectSound(diagram({})), 'placeholder')[0]!.text).toBe('No nodes');
  });

  it('draws a large ego network around a hub', () => {
    const many = [node('hub', 0, 0, { emphasis: true }), ...Array.from({ length: 3000 }, (_, i) => node(`n${i}`, Math.cos(i), Math.sin(i), { group: `g${i % 5}` }))];
    const links = many.slice(1).map((n, i) => ({ source: i % 2 ? 'hub' : n.id, target: i % 2 ? n.id : 'hub', weight: i % 17 }));
    const root = expectSound(diagram({ nodes: many, edges: [...links, { source: 'hub', target: 'hub', weight: 1 }] }));
    expect(nodes(root)).toHaveLength(3001);
    expect(edges(root)).toHaveLength(3001);
  });
});
