import { describe, it, expect } from 'vitest';
import {
  Markup,
  PALETTE,
  axis,
  el,
  escapeXml,
  formatNumber,
  legend,
  linearScale,
  logScale,
  logTickFormat,
  logTicks,
  niceTicks,
  rectSwatch,
  svgDocument,
  text,
  textWidth,
  tickFormat,
  truncate,
  wrap,
} from './svg.js';
import { byClass, expectSound, findAll, parseSvg, tickLabels, tooltip } from './test/svg-tree.js';

const INJECTION = '</text><script>alert(1)</script><text>';

describe('escapeXml', () => {
  it('escapes the five XML specials so text cannot open or close markup', () => {
    expect(escapeXml(`a & b < c > d "e" 'f'`)).toBe('a &amp; b &lt; c &gt; d &quot;e&quot; &#39;f&#39;');
  });

  it('replaces characters XML forbids, which would otherwise make the whole document unparseable', () => {
    expect(escapeXml('bell\u0007 nul\u0000 lone\uD800 ok\uD83E\uDDE0')).toBe('bell\uFFFD nul\uFFFD lone\uFFFD ok\uD83E\uDDE0');
    expect(() => parseSvg(svgDocument({ width: 300, height: 300, title: 'x\u0001y\uFFFF' }, []))).not.toThrow();
  });
});

describe('el', () => {
  it('escapes string children and attribute values but inserts Markup as is', () => {
    const m = el('g', { 'data-name': INJECTION }, [INJECTION, el('circle', { r: 2 })]);
    const root = parseSvg(`<svg xmlns="http://www.w3.org/2000/svg">${m.xml}</svg>`);
    expect(findAll(root, (n) => n.name === 'script')).toEqual([]);
    const g = root.children[0]!;
    expect(g.attrs['data-name']).toBe(INJECTION);
    expect(g.text).toBe(INJECTION);
    expect(g.children.map((c) => c.name)).toEqual(['circle']);
  });

  it('rounds numbers and leaves out attributes whose value is not a finite number or is absent', () => {
    expect(el('rect', { x: 1.23456, y: NaN, width: Infinity, height: -0, fill: undefined, stroke: null, class: false }).xml).toBe('<rect x="1.23" height="0"/>');
  });

  it('refuses element and attribute names that are not names', () => {
    expect(() => el('g onload=x', {})).toThrow();
    expect(() => el('g', { 'a b': 1 })).toThrow();
  });

  it('nests arrays of children and skips empty ones', () => {
    expect(el('g', {}, [[el('a'), null, [false, undefined, el('b')]]]).xml).toBe('<g><a/><b/></g>');
    expect(new Markup('<x/>').toString()).toBe('<x/>');
  });
});

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 × 10ⁿ and covers the range', () => {
    expect(niceTicks(0, 1, 5).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 301, 6).ticks).toEqual([0, 50, 100, 150, 200, 250, 300, 350]);
    expect(niceTicks(-3.7, 12.2, 4).ticks).toEqual([-5, 0, 5, 10, 15]);
    expect(niceTicks(0, 1e9, 5).ticks).toEqual([0, 2e8, 4e8, 6e8, 8e8, 1e9]);
  });

  it('produces exact decimals rather than accumulated floating-point error', () => {
    expect(niceTicks(0, 0.3, 3).ticks).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(0.0001, 0.0007, 6).ticks).toEqual([0.0001, 0.0002, 0.0003, 0.0004, 0.0005, 0.0006, 0.0007]);
  });

  it('holds for arbitrary ranges: mantissa 1, 2 or 5, bounds covered, short decimal forms', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 10 ** Math.floor((seed % 13) - 6);
    for (let i = 0; i < 500; i++) {
      const [a, b] = [random(), random()].sort((x, y) => x - y) as [number, number];
      const t = niceTicks(a, b, 5);
      const mantissa = t.step / 10 ** Math.floor(Math.log10(t.step) + 1e-9);
      expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9), `step ${t.step}`).toBe(true);
      // Within a billionth of a step: float noise must not add an empty interval.
      expect(t.min).toBeLessThanOrEqual(a + t.step * 1e-9);
      expect(t.max).toBeGreaterThanOrEqual(b - t.step * 1e-9);
      expect(t.ticks.length).toBeLessThanOrEqual(13);
      for (const tick of t.ticks) expect(String(tick)).not.toMatch(/\d{12}/);
    }
  });

  it('widens a zero-width or broken range instead of failing', () => {
    expect(niceTicks(0, 0).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(5, 5).min).toBeLessThan(5);
    expect(niceTicks(5, 5).max).toBeGreaterThan(5);
    for (const [a, b] of [[NaN, NaN], [-Infinity, Infinity], [3, NaN], [10, 2]] as const) {
      const t = niceTicks(a, b);
      expect(t.ticks.length).toBeGreaterThan(1);
      expect(t.ticks.every(Number.isFinite)).toBe(true);
    }
  });

  it('keeps whole-number steps for integer axes', () => {
    expect(niceTicks(1, 3, 10, { integer: true }).ticks).toEqual([1, 2, 3]);
  });
});

describe('logTicks', () => {
  it('puts ticks on the powers of ten that cover the range', () => {
    expect(logTicks(1, 1000).ticks).toEqual([1, 10, 100, 1000]);
    expect(logTicks(3, 420).ticks).toEqual([1, 10, 100, 1000]);
    expect(logTicks(0.002, 0.04).ticks).toEqual([0.001, 0.01, 0.1]);
    expect(logTicks(5, 5).ticks).toEqual([1, 10]);
  });

  it('labels every second or third power when the range spans many decades', () => {
    const t = logTicks(1, 1e12, 7);
    expect(t.ticks).toEqual([1, 1e2, 1e4, 1e6, 1e8, 1e10, 1e12]);
    expect(t.minor).toEqual([]);
  });

  it('falls back to a decade when given zero or negative bounds', () => {
    expect(logTicks(0, 0).ticks).toEqual([1, 10]);
    expect(logTicks(-5, 100).ticks).toEqual([100, 1000]);
  });
});

describe('tick labels', () => {
  it('show just the decimals the step needs', () => {
    const t = niceTicks(0, 1, 5);
    expect(t.ticks.map(tickFormat(t.ticks, t.step))).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
    const u = niceTicks(-20, 20, 4);
    expect(u.ticks.map(tickFormat(u.ticks, u.step))).toEqual(['−20', '−10', '0', '10', '20']);
  });

  it('switch to m × 10ⁿ for all labels of an axis with very large values', () => {
    const t = niceTicks(0, 1.2e9, 6);
    expect(t.ticks.map(tickFormat(t.ticks, t.step))).toEqual(['0', '2×10⁸', '4×10⁸', '6×10⁸', '8×10⁸', '1×10⁹', '1.2×10⁹']);
  });

  it('write powers of ten plainly while short, as 10ⁿ beyond', () => {
    expect([1, 10, 100, 1000].map(logTickFormat([1, 10, 100, 1000]))).toEqual(['1', '10', '100', '1000']);
    expect([1, 1e3, 1e6].map(logTickFormat([1, 1e3, 1e6]))).toEqual(['10⁰', '10³', '10⁶']);
    expect([0.01, 0.1].map(logTickFormat([0.01, 0.1]))).toEqual(['0.01', '0.1']);
  });

  it('format single values with three significant digits', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(-2.5)).toBe('−2.5');
    expect(formatNumber(1234)).toBe('1234');
    expect(formatNumber(1e9)).toBe('1×10⁹');
    expect(formatNumber(NaN)).toBe('');
  });
});

describe('text', () => {
  it('cuts long text with an ellipsis and keeps the full text as a tooltip', () => {
    const long = 'A'.repeat(200);
    const root = parseSvg(`<svg xmlns="http://www.w3.org/2000/svg">${text(long, { x: 0, y: 0, maxWidth: 100 }).xml}</svg>`);
    const t = root.children[0]!;
    expect(t.text.endsWith('…')).toBe(true);
    expect(textWidth(t.text, 12)).toBeLessThanOrEqual(100);
    expect(tooltip(t)).toBe(long);
  });

  it('leaves short text alone', () => {
    expect(truncate('AVAL', 100, 12)).toEqual({ text: 'AVAL', truncated: false });
  });

  it('wraps to the allowed number of lines and marks what was left out', () => {
    const w = wrap('one two three four five six seven eight nine ten', 60, 12, 2);
    expect(w.lines).toHaveLength(2);
    expect(w.truncated).toBe(true);
    expect(w.lines[1]!.endsWith('…')).toBe(true);
    expect(wrap('short', 200, 12, 3)).toEqual({ lines: ['short'], truncated: false });
  });
});

describe('axis', () => {
  it('draws a tick and a label per nice value, and the title', () => {
    const ticks = niceTicks(0, 100, 5);
    const scale = linearScale([0, 100], [300, 0], ticks);
    const root = parseSvg(`<svg xmlns="http://www.w3.org/2000/svg">${axis({ scale, orient: 'left', at: 50, title: 'cells', gridLength: 200 }).xml}</svg>`);
    expect(tickLabels(root, 'left')).toEqual(['0', '20', '40', '60', '80', '100']);
    expect(byClass(root, 'axis-title')[0]!.text).toBe('cells');
  });

  it('thins labels that would collide but keeps the ticks', () => {
    const ticks = niceTicks(0, 1e9, 10);
    const scale = linearScale([0, 1e9], [0, 120], ticks);
    const root = parseSvg(`<svg xmlns="http://www.w3.org/2000/svg">${axis({ scale, orient: 'bottom', at: 0 }).xml}</svg>`);
    expect(tickLabels(root, 'bottom').length).toBeLessThan(ticks.ticks.length);
    expect(byClass(root, 'ticks')[0]!.children).toHaveLength(ticks.ticks.length);
  });

  it('maps log values by decade', () => {
    const scale = logScale([1, 1000], [0, 300], logTicks(1, 1000));
    expect([1, 10, 100, 1000].map(scale.map)).toEqual([0, 100, 200, 300]);
    expect(scale.map(0)).toBe(0);
  });
});

describe('legend', () => {
  it('measures itself before placement and renders one entry per item', () => {
    const l = legend([{ label: 'a', swatch: rectSwatch(PALETTE[0]) }, { label: 'b', swatch: rectSwatch(PALETTE[1]) }], { title: 'kind' });
    expect(l.width).toBeGreaterThan(0);
    expect(l.height).toBe(60);
    const root = parseSvg(`<svg xmlns="http://www.w3.org/2000/svg">${l.render(10, 10).xml}</svg>`);
    expect(byClass(root, 'legend-entry')).toHaveLength(2);
  });
});

describe('svgDocument', () => {
  it('is a standalone, scalable SVG whose title is escaped', () => {
    const svg = svgDocument({ width: 400, height: 300, title: INJECTION }, []);
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const root = expectSound(svg);
    expect(root.attrs.viewBox).toBe('0 0 400 300');
    expect(root.attrs['font-family']).toMatch(/sans-serif$/);
    expect(root.children.find((c) => c.name === 'title')!.text).toBe(INJECTION);
  });
});
