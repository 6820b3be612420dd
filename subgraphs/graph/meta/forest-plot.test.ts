import { describe, expect, it } from 'vitest';
import { byClass, expectSound, findAll, hasClass, tickLabels, type SvgNode } from '../../../domain/plot/test/svg-tree.js';
import { forestPlot } from './forest-plot.js';
import { metaAnalyse } from './meta-analysis.js';
import type { MetaResult } from './meta.model.js';
import { TABLES } from './test/fixtures/tables.js';

const bcg = () => metaAnalyse({ studies: TABLES.bcg(), measure: 'logRR' });
const normand = () => metaAnalyse({ studies: TABLES.normand(), measure: 'MD', vtype: 'HO' });

const numbersIn = (d: string) => [...d.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
const xsOfPath = (d: string) => numbersIn(d).filter((_, i) => i % 2 === 0);
const parseLabel = (s: string) => Number(s.replace('\u2212', '-'));

/** Pixel x of a value on the analysis scale, recovered from two labelled ticks of the drawn axis. */
function axisMap(root: SvgNode, isRatio: boolean): (value: number) => number {
  const axis = findAll(root, (n) => hasClass(n, 'axis-bottom'))[0]!;
  const ticks = byClass(axis, 'tick-label').map((t) => ({ value: parseLabel(t.text), x: Number(t.attrs.x) }));
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  const f = (v: number) => (isRatio ? Math.log(v) : v);
  const [a, b] = [ticks[0]!, ticks[ticks.length - 1]!];
  return (value) => a.x + ((value - f(a.value)) / (f(b.value) - f(a.value))) * (b.x - a.x);
}

describe('forestPlot', () => {
  it('draws one row per study with its label, square, whisker, estimate and weight', () => {
    const result = bcg();
    const root = expectSound(forestPlot(result));
    const rows = byClass(root, 'study-row');
    expect(rows).toHaveLength(13);
    expect(rows.map((r) => byClass(r, 'study-label')[0]!.text)).toEqual(result.studies.map((s) => s.label));
    for (const row of rows) {
      expect(byClass(row, 'study-square', 'rect')).toHaveLength(1);
      expect(byClass(row, 'ci', 'line')).toHaveLength(1);
      expect(byClass(row, 'study-weight')[0]!.text).toMatch(/^\d+\.\d%$/);
    }
    expect(byClass(rows[0]!, 'study-estimate')[0]!.text).toBe('0.41 [0.13, 1.26]');
  });

  it('sizes squares by weight', () => {
    const result = bcg();
    const root = expectSound(forestPlot(result));
    const sides = byClass(root, 'study-square', 'rect').map((r) => Number(r.attrs.width));
    const heaviest = result.studies.reduce((best, s, i) => (s.weight > result.studies[best]!.weight ? i : best), 0);
    const lightest = result.studies.reduce((best, s, i) => (s.weight < result.studies[best]!.weight ? i : best), 0);
    expect(Math.max(...sides)).toBe(sides[heaviest]);
    expect(Math.min(...sides)).toBe(sides[lightest]);
  });

  it.each([
    ['a ratio measure on a log axis', bcg, true],
    ['a mean difference on a linear axis', normand, false],
  ] as const)('draws the diamond over exactly the pooled CI for %s', (_, analyse, isRatio) => {
    const result: MetaResult = analyse();
    const root = expectSound(forestPlot(result));
    const x = axisMap(root, isRatio);
    const diamond = byClass(root, 'diamond', 'path');
    expect(diamond).toHaveLength(1);
    const xs = xsOfPath(diamond[0]!.attrs.d!);
    expect(Math.min(...xs)).toBeCloseTo(x(result.ci_lower), 1);
    expect(Math.max(...xs)).toBeCloseTo(x(result.ci_upper), 1);
    const study = byClass(byClass(root, 'study-row')[0]!, 'ci', 'line')[0]!;
    expect(Number(study.attrs.x1)).toBeCloseTo(x(result.studies[0]!.ci_lower), 1);
    expect(Number(study.attrs.x2)).toBeCloseTo(x(result.studies[0]!.ci_upper), 1);
  });

  it('draws the prediction interval for random-effects models and not for the equal-effects model', () => {
    const result = bcg();
    const root = expectSound(forestPlot(result));
    const pi = byClass(root, 'prediction-interval');
    expect(pi).toHaveLength(1);
    const x = axisMap(root, true);
    const line = pi[0]!.children.find((c) => c.name === 'line')!;
    expect(Number(line.attrs.x1)).toBeCloseTo(x(result.pi_lower), 1);
    expect(Number(line.attrs.x2)).toBeCloseTo(x(result.pi_upper), 1);
    const fixedEffect = expectSound(forestPlot(metaAnalyse({ studies: TABLES.bcg(), measure: 'logRR', method: 'FE' })));
    expect(byClass(fixedEffect, 'prediction-interval')).toHaveLength(0);
  });

  it('labels a ratio axis with ratios around 1 and puts the reference line there', () => {
    const root = expectSound(forestPlot(bcg()));
    const labels = tickLabels(root, 'bottom');
    expect(labels).toContain('1');
    expect(labels).toContain('0.5');
    expect(labels.every((l) => Number(l) > 0)).toBe(true);
    const x = axisMap(root, true);
    const nullLine = byClass(root, 'null-line', 'line')[0]!;
    expect(Number(nullLine.attrs.x1)).toBeCloseTo(x(0), 1);
    expect(findAll(root, (n) => hasClass(n, 'axis-title'))[0]!.text).toBe('Risk ratio (log scale)');
  });

  it('labels a linear axis in the measure units with the reference line at 0', () => {
    const root = expectSound(forestPlot(normand()));
    expect(tickLabels(root, 'bottom')).toContain('0');
    const x = axisMap(root, false);
    expect(Number(byClass(root, 'null-line', 'line')[0]!.attrs.x1)).toBeCloseTo(x(0), 1);
  });

  it('states heterogeneity and the test of the pooled effect', () => {
    const root = expectSound(forestPlot(bcg()));
    const line = byClass(root, 'heterogeneity')[0]!.text;
    expect(line).toContain('τ² = 0.313');
    expect(line).toContain('I² = 92.2%');
    expect(line).toContain('Q = 152.23 (df = 12), p < 0.001');
  });

  it('cuts an extreme CI at the edge with an arrow', () => {
    const studies = TABLES.normand();
    studies.push({ label: 'Tiny', m1i: 20, sd1i: 400, n1i: 2, m2i: 20, sd2i: 400, n2i: 2 });
    const result = metaAnalyse({ studies, measure: 'MD' });
    const root = expectSound(forestPlot(result));
    const tiny = byClass(root, 'study-row')[9]!;
    expect(byClass(tiny, 'clip-arrow')).toHaveLength(2);
    expect(byClass(byClass(root, 'study-row')[0]!, 'clip-arrow')).toHaveLength(0);
  });

  it('escapes user labels and the title', () => {
    const studies = TABLES.hine().map((s, i) => (i === 0 ? { ...s, label: '<b>"A" & B</b>' } : s));
    const svg = forestPlot(metaAnalyse({ studies, measure: 'RD' }), { title: '<script>x</script>' });
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('<script>');
    const root = expectSound(svg);
    expect(byClass(root, 'study-label')[0]!.text).toBe('<b>"A" & B</b>');
    expect(byClass(root, 'chart-title')[0]!.text).toBe('<script>x</script>');
  });
});

describe("the README's forest plot", () => {
  it('is what npm run docs:plots writes from the current code', async () => {
    const { readFileSync } = await import('node:fs');
    const { packagePath } = await import('../../../lib/package-root.js');
    const { bcgForestPlot } = await import('./test/fixtures/readme-plot.js');
    expect(readFileSync(packagePath('docs', 'img', 'bcg-forest-plot.svg'), 'utf8')).toBe(bcgForestPlot());
  });
});
