import { describe, it, expect } from 'vitest';
import { histogramChart, type HistogramOptions } from './histogram.js';
import { byClass, expectSound, findAll, hasClass, tickLabels, tooltip, type SvgNode } from './test/svg-tree.js';

const INJECTION = '</text><script>alert(1)</script>';

const chart = (o: Partial<HistogramOptions>) => histogramChart({ title: 't', xLabel: 'degree', yLabel: 'cells', panels: [], ...o });
const bars = (root: SvgNode) => byClass(root, 'bar', 'rect');
const panels = (root: SvgNode) => byClass(root, 'panel');
/** The count in a bar's tooltip ("10–19: 42"). */
const countOf = (bar: SvgNode) => Number(tooltip(bar)!.split(': ')[1]);
const degrees = (counts: number[]) => counts.map((count, x) => ({ x, count }));

describe('histogramChart', () => {
  it('draws one panel per entry and one bar per nonzero count', () => {
    const root = expectSound(
      chart({
        panels: [
          { name: 'in-degree', bins: degrees([5, 0, 3, 2]) },
          { name: 'out-degree', bins: degrees([1, 4, 4]) },
          { name: 'total degree', bins: degrees([0, 0, 6, 0, 1, 2]) },
        ],
      }),
    );
    expect(panels(root)).toHaveLength(3);
    expect(byClass(root, 'panel-title').map((t) => t.text)).toEqual(['in-degree', 'out-degree', 'total degree']);
    expect(panels(root).map((p) => bars(p).length)).toEqual([3, 3, 3]);
    expect(bars(root).map(tooltip)).toContain('2: 6');
  });

  it('shares nice y ticks across panels, labelled on the first column only', () => {
    const root = expectSound(chart({ panels: [{ name: 'a', bins: degrees([3, 7]) }, { name: 'b', bins: degrees([10, 1]) }] }));
    const [first, second] = panels(root);
    expect(tickLabels(first!, 'left')).toEqual(['0', '2', '4', '6', '8', '10']);
    expect(tickLabels(second!, 'left')).toEqual([]);
    expect(tickLabels(first!, 'bottom')).toEqual(tickLabels(second!, 'bottom'));
    for (const l of tickLabels(first!, 'bottom')) expect(l).toMatch(/^\d+$/);
  });

  it('draws bars of equal counts at equal heights in every panel', () => {
    const root = expectSound(chart({ panels: [{ name: 'a', bins: [{ x: 1, count: 4 }] }, { name: 'b', bins: [{ x: 2, count: 4 }] }] }));
    const [a, b] = bars(root);
    expect(a!.attrs.height).toBe(b!.attrs.height);
    expect(a!.attrs.y).toBe(b!.attrs.y);
  });

  it('bins thousands of distinct degrees into 1-2-5 ranges and keeps every cell', () => {
    const bins = Array.from({ length: 3000 }, (_, x) => ({ x, count: 1 + (x % 7) }));
    const total = bins.reduce((s, b) => s + b.count, 0);
    const root = expectSound(chart({ panels: [{ name: 'degree', bins }], width: 700 }));
    const drawn = bars(root);
    expect(drawn.length).toBeLessThanOrEqual(300);
    expect(drawn.reduce((s, b) => s + countOf(b), 0)).toBe(total);
    const [from, to] = tooltip(drawn[1]!)!.split(':')[0]!.split('–').map(Number);
    expect([10, 20, 50, 100]).toContain(to! - from! + 1);
    expect(from! % (to! - from! + 1)).toBe(0);
    for (const b of drawn) expect(Number(b.attrs.width)).toBeGreaterThanOrEqual(1);
  });

  it('keeps a bar per value for a sparse degree distribution that fits, summing repeated values', () => {
    const root = expectSound(chart({ panels: [{ name: 'd', bins: [{ x: 1, count: 5 }, { x: 40, count: 2 }, { x: 40, count: 3 }, { x: 80, count: 1 }] }] }));
    expect(bars(root).map(tooltip)).toEqual(['1: 5', '40: 5', '80: 1']);
  });

  it('puts counts on a log axis with powers of ten, leaving out counts of 0', () => {
    const root = expectSound(chart({ logY: true, panels: [{ name: 'in', bins: degrees([900, 120, 0, 14, 1, 0]) }] }));
    expect(tickLabels(root, 'left')).toEqual(['1', '10', '100', '1000']);
    expect(bars(root)).toHaveLength(4);
    // A count of 1 still has a visible bar: the axis floor is below 1.
    for (const b of bars(root)) expect(Number(b.attrs.height)).toBeGreaterThan(5);
  });

  it('labels huge counts as m × 10ⁿ on either axis type', () => {
    const linear = expectSound(chart({ panels: [{ name: 'a', bins: [{ x: 0, count: 1e9 }, { x: 1, count: 5e8 }] }] }));
    expect(tickLabels(linear, 'left').at(-1)).toBe('1×10⁹');
    const log = expectSound(chart({ logY: true, panels: [{ name: 'a', bins: [{ x: 0, count: 1e9 }, { x: 1, count: 3 }] }] }));
    expect(tickLabels(log, 'left')).toEqual(['10⁰', '10²', '10⁴', '10⁶', '10⁸', '10¹⁰']);
  });

  it('escapes names and cuts long ones with the full name as a tooltip', () => {
    const long = `${'a very long panel name '.repeat(6)}${INJECTION}`;
    const root = expectSound(chart({ title: INJECTION, xLabel: INJECTION, yLabel: INJECTION, panels: [{ name: long, bins: degrees([1]) }, { name: INJECTION, bins: degrees([2]) }] }));
    const [first, second] = byClass(root, 'panel-title');
    expect(first!.text.endsWith('…')).toBe(true);
    expect(tooltip(first!)).toBe(long.replace(/\s+/g, ' ').trim());
    expect(tooltip(second!) ?? second!.text).toBe(INJECTION);
  });

  it('lays out more than three panels in a grid', () => {
    const root = expectSound(chart({ panels: Array.from({ length: 5 }, (_, i) => ({ name: `p${i}`, bins: degrees([i + 1, 2]) })) }));
    const rows = new Set(panels(root).map((p) => p.attrs.transform!.split(' ')[1]));
    expect(rows.size).toBe(2);
  });

  it.each<[string, Partial<HistogramOptions>, number]>([
    ['no panels', { panels: [] }, 0],
    ['a panel without bins', { panels: [{ name: 'a', bins: [] }] }, 0],
    ['all-zero counts', { panels: [{ name: 'a', bins: degrees([0, 0, 0]) }] }, 0],
    ['all-zero counts on a log axis', { logY: true, panels: [{ name: 'a', bins: degrees([0, 0]) }] }, 0],
    ['a single bin', { panels: [{ name: 'a', bins: [{ x: 7, count: 3 }] }] }, 1],
    ['a single bin on a log axis', { logY: true, panels: [{ name: 'a', bins: [{ x: 7, count: 1 }] }] }, 1],
    ['negative and broken counts', { panels: [{ name: 'a', bins: [{ x: 1, count: -4 }, { x: 2, count: NaN }, { x: 3, count: 2 }, { x: NaN, count: 5 }] }] }, 1],
    ['negative x', { panels: [{ name: 'a', bins: [{ x: -5, count: 1 }, { x: 5, count: 2 }] }] }, 2],
    ['non-integer x', { panels: [{ name: 'a', bins: [{ x: 0.25, count: 1 }, { x: 0.75, count: 2 }, { x: 1.5, count: 1 }] }] }, 3],
    ['huge x', { panels: [{ name: 'a', bins: [{ x: 0, count: 1 }, { x: 1e9, count: 2 }] }] }, 2],
    ['one empty panel among others', { panels: [{ name: 'a', bins: degrees([1, 2]) }, { name: 'b', bins: [] }] }, 2],
  ])('copes with %s', (_, o, expectedBars) => {
    const root = expectSound(chart(o));
    expect(bars(root)).toHaveLength(expectedBars);
    expect(tickLabels(root, 'left').length).toBeGreaterThan(1);
    expect(findAll(root, (n) => hasClass(n, 'axis-bottom')).length).toBe(panels(root).length);
  });

  it('says why a panel is empty', () => {
    const root = expectSound(chart({ panels: [{ name: 'a', bins: [] }, { name: 'b', bins: degrees([0]) }] }));
    expect(byClass(root, 'placeholder').map((p) => p.text)).toEqual(['No data', 'All counts are 0']);
  });

  it('bins a data-sized distribution without overflowing the stack', () => {
    const bins = Array.from({ length: 200_000 }, (_, x) => ({ x, count: 1 }));
    const root = expectSound(chart({ logY: true, panels: [{ name: 'a', bins }] }));
    expect(bars(root).reduce((s, b) => s + countOf(b), 0)).toBe(200_000);
  });
});
