import { describe, it, expect } from 'vitest';
import { lineChart, type LineChartOptions } from './line-chart.js';
import { byClass, byName, expectSound, findAll, tickLabels, tooltip } from './test/svg-tree.js';

const INJECTION = '</text><script>alert(1)</script>';

const reachability: LineChartOptions = {
  title: 'Reachability: celegans@v3, chemical',
  xLabel: 'hops (k)',
  yLabel: 'cells reachable within k hops',
  series: [{ name: 'AVAL', points: [[1, 12], [2, 88], [3, 231], [4, 289], [5, 299], [6, 300]] }],
  yMin: 0,
  yMax: 301,
  xInteger: true,
  note: '302 cells; the top of the axis is every other cell',
};

const chart = (o: Partial<LineChartOptions>) => lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [], ...o });

describe('lineChart', () => {
  it('draws a line and a marker per point, with nice ticks on both axes', () => {
    const root = expectSound(lineChart(reachability));
    expect(byClass(root, 'series-line')).toHaveLength(1);
    expect(byClass(root, 'point')).toHaveLength(6);
    expect(tickLabels(root, 'left')).toEqual(['0', '50', '100', '150', '200', '250', '300']);
    expect(tickLabels(root, 'bottom')).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(byClass(root, 'axis-title').map((t) => t.text)).toEqual(['cells reachable within k hops', 'hops (k)']);
    expect(byClass(root, 'chart-title')[0]!.text).toBe(reachability.title);
    expect(byClass(root, 'note')[0]!.children.some((c) => c.text === reachability.note)).toBe(true);
  });

  it('shows a legend only when there are several series, one entry each, in distinct colours', () => {
    expect(byClass(expectSound(lineChart(reachability)), 'legend')).toHaveLength(0);
    const root = expectSound(
      chart({ series: ['a', 'b', 'c'].map((name, i) => ({ name, points: [[1, i], [2, i + 1]] as Array<[number, number]> })) }),
    );
    expect(byClass(root, 'legend-entry')).toHaveLength(3);
    const colours = byClass(root, 'series-line').map((p) => p.attrs.stroke);
    expect(new Set(colours).size).toBe(3);
  });

  it('puts whole-number ticks on an integer x axis however many hops there are', () => {
    const points = Array.from({ length: 40 }, (_, k): [number, number] => [k + 1, k * k]);
    const labels = tickLabels(expectSound(chart({ series: [{ name: 's', points }], xInteger: true })), 'bottom');
    expect(labels.length).toBeGreaterThan(2);
    for (const l of labels) expect(l).toMatch(/^\d+$/);
  });

  it('starts a y axis of non-negative values at zero', () => {
    const root = expectSound(chart({ series: [{ name: 's', points: [[0, 500], [1, 700]] }] }));
    expect(tickLabels(root, 'left')[0]).toBe('0');
  });

  it('clips to explicit y bounds', () => {
    const root = expectSound(chart({ series: [{ name: 's', points: [[0, -5], [1, 50]] }], yMin: 0, yMax: 10 }));
    const clip = byName(root, 'clipPath')[0]!;
    expect(byClass(root, 'plot')[0]!.attrs['clip-path']).toBe(`url(#${clip.attrs.id})`);
    expect(tickLabels(root, 'left')).toEqual(['0', '2', '4', '6', '8', '10']);
  });

  it('escapes user text and cuts long names, keeping the full name as a tooltip', () => {
    const long = `${'Very long series name '.repeat(8)}${INJECTION}`;
    const root = expectSound(
      chart({ title: INJECTION, xLabel: INJECTION, yLabel: '<b>&', note: INJECTION, series: [{ name: long, points: [[1, 1], [2, 2]] }, { name: INJECTION, points: [[1, 2]] }] }),
    );
    expect(byClass(root, 'chart-title')[0]!.text).toBe(INJECTION);
    const legendLabels = findAll(byClass(root, 'legend')[0]!, (n) => n.name === 'text');
    expect(legendLabels[0]!.text.endsWith('…')).toBe(true);
    expect(tooltip(legendLabels[0]!)).toBe(long.replace(/\s+/g, ' ').trim());
    expect(tooltip(legendLabels[1]!) ?? legendLabels[1]!.text).toBe(INJECTION);
  });

  it.each<[string, Partial<LineChartOptions>, { lines: number; points: number }]>([
    ['no series', { series: [] }, { lines: 0, points: 0 }],
    ['series without points', { series: [{ name: 'a', points: [] }, { name: 'b', points: [] }] }, { lines: 0, points: 0 }],
    ['a single point', { series: [{ name: 'a', points: [[3, 7]] }] }, { lines: 0, points: 1 }],
    ['a single point at zero on an integer axis', { series: [{ name: 'a', points: [[0, 0]] }], xInteger: true }, { lines: 0, points: 1 }],
    ['identical values', { series: [{ name: 'a', points: [[2, 5], [2, 5], [2, 5]] }] }, { lines: 1, points: 3 }],
    ['negative values', { series: [{ name: 'a', points: [[-3, -1e-3], [0, 0.5], [4, -2]] }] }, { lines: 1, points: 3 }],
    ['huge values', { series: [{ name: 'a', points: [[1, 1e9], [2, 3.3e9], [1e9, 1e12]] }] }, { lines: 1, points: 3 }],
    ['tiny values', { series: [{ name: 'a', points: [[1e-9, 1e-12], [2e-9, 3e-12]] }] }, { lines: 1, points: 2 }],
    ['non-finite coordinates', { series: [{ name: 'a', points: [[NaN, 1], [1, Infinity], [2, 2], [3, 3]] }] }, { lines: 1, points: 2 }],
    ['yMin above yMax', { series: [{ name: 'a', points: [[1, 1], [2, 2]] }], yMin: 5, yMax: 1 }, { lines: 1, points: 2 }],
    ['yMin equal to yMax', { series: [{ name: 'a', points: [[1, 1], [2, 2]] }], yMin: 3, yMax: 3 }, { lines: 1, points: 2 }],
    ['absurd sizes', { series: [{ name: 'a', points: [[1, 1], [2, 2]] }], width: NaN, height: -5 }, { lines: 1, points: 2 }],
  ])('copes with %s', (_, o, expected) => {
    const root = expectSound(chart(o));
    expect(byClass(root, 'series-line')).toHaveLength(expected.lines);
    expect(byClass(root, 'point')).toHaveLength(expected.points);
    expect(tickLabels(root, 'left').length).toBeGreaterThan(1);
    expect(tickLabels(root, 'bottom').length).toBeGreaterThan(0);
  });

  it('says so when there is nothing to draw', () => {
    expect(byClass(expectSound(chart({ series: [] })), 'placeholder')[0]!.text).toBe('No data');
  });

  it('labels huge values as m × 10ⁿ', () => {
    const root = expectSound(chart({ series: [{ name: 'a', points: [[1, 0], [2, 1e9]] }] }));
    expect(tickLabels(root, 'left')).toEqual(['0', '2×10⁸', '4×10⁸', '6×10⁸', '8×10⁸', '1×10⁹']);
  });

  it('leaves out markers on long series but keeps the line', () => {
    const points = Array.from({ length: 500 }, (_, i): [number, number] => [i, Math.sin(i / 20)]);
    const root = expectSound(chart({ series: [{ name: 'a', points }] }));
    expect(byClass(root, 'series-line')).toHaveLength(1);
    expect(byClass(root, 'point')).toHaveLength(0);
  });

  it('draws a data-sized series without overflowing the stack', () => {
    const points = Array.from({ length: 300_000 }, (_, i): [number, number] => [i, i % 1000]);
    const root = expectSound(chart({ series: [{ name: 'a', points }] }));
    expect(byClass(root, 'series-line')).toHaveLength(1);
  });
});
