import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BadInput } from '../../../lib/errors.js';
import { metaAnalyse } from './meta-analysis.js';
import type { Measure, MetaInput, MetaResult, Method, StudyInput, VarianceType, ZeroCellCorrection } from './meta.model.js';
import { hineStudies, studiesOf, TABLES, type TableName } from './test/fixtures/tables.js';

interface ReferenceCase {
  table: TableName | 'hine_zero';
  measure: Measure;
  vtype: VarianceType;
  zero_cell: ZeroCellCorrection | null;
  method: Method;
  knapp_hartung: boolean;
  [field: string]: unknown;
  back_transformed: Record<string, number> | null;
  studies: Array<{ label: string; yi: number; vi: number; weight: number; ci_lower: number; ci_upper: number }>;
}

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./test/fixtures/${name}`, import.meta.url), 'utf8'));
const metafor = fixture('metafor_reference.json') as { cases: ReferenceCase[] };

/** Within 1e-6 relative, or 1e-9 absolute for values at or near 0 (tau2 on the boundary, I2 = 0). */
function expectClose(actual: number | null | undefined, expected: number | null, what: string): void {
  if (expected === null) {
    expect(actual, what).toBeNull();
    return;
  }
  expect(typeof actual, what).toBe('number');
  const tolerance = Math.max(1e-9, 1e-6 * Math.abs(expected));
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

const POOLED_FIELDS = [
  'k', 'estimate', 'se', 'statistic', 'p', 'ci_lower', 'ci_upper', 'pi_lower', 'pi_upper',
  'tau2', 'tau', 'tau2_se', 'I2', 'H2', 'Q', 'df', 'p_Q', 'kh_scale',
] as const;

const caseName = (c: ReferenceCase) =>
  `${c.table} ${c.measure}${c.vtype !== 'LS' ? ` (vtype ${c.vtype})` : ''} ${c.method}${c.knapp_hartung ? ' + Knapp-Hartung' : ''}`;

describe('metaAnalyse against metafor', () => {
  it('covers every table, measure, method and test in the reference file', () => {
    expect(metafor.cases).toHaveLength(9 * 6 * 2);
  });

  it.each(metafor.cases.map((c) => [caseName(c), c] as const))('%s agrees on every output field', (_, ref) => {
    const input: MetaInput = {
      studies: studiesOf(ref.table),
      measure: ref.measure,
      vtype: ref.vtype,
      method: ref.method,
      knapp_hartung: ref.knapp_hartung,
      ...(ref.zero_cell ? { zero_cell: ref.zero_cell } : {}),
    };
    const result: MetaResult = metaAnalyse(input);
    expect(result.method).toBe(ref.method);
    expect(result.measure).toBe(ref.measure);
    expect(result.statistic_kind).toBe(ref.statistic_kind);
    expect(result.statistic_df).toBe(ref.knapp_hartung ? ref.df : null);
    for (const field of POOLED_FIELDS) expectClose(result[field], ref[field] as number | null, field);

    if (ref.back_transformed) {
      for (const field of ['estimate', 'ci_lower', 'ci_upper', 'pi_lower', 'pi_upper'] as const) {
        expectClose(result.back_transformed?.[field], ref.back_transformed[field]!, `back_transformed.${field}`);
      }
    } else {
      expect(result.back_transformed).toBeNull();
    }

    expect(result.studies.map((s) => s.label)).toEqual(ref.studies.map((s) => s.label));
    ref.studies.forEach((s, i) => {
      const got = result.studies[i]!;
      for (const field of ['yi', 'vi', 'weight', 'ci_lower', 'ci_upper'] as const) expectClose(got[field], s[field], `${s.label} ${field}`);
      if (ref.back_transformed) expectClose(got.back_transformed?.estimate, Math.exp(s.yi), `${s.label} exp(yi)`);
    });
  });
});

describe('metaAnalyse against statsmodels combine_effects', () => {
  const statsmodels = fixture('statsmodels_reference.json') as {
    cases: Array<{
      table: TableName;
      measure: Measure;
      vtype: VarianceType;
      method: 'DL' | 'PM';
      tau2: number;
      tau2_truncated: boolean;
      converged: boolean;
      q: number;
      h2: number;
      fe: Record<'estimate' | 'se' | 'ci_lower' | 'ci_upper', number>;
      re: Record<'estimate' | 'se' | 'ci_lower' | 'ci_upper' | 'se_hksj', number>;
      weights_re_percent: number[];
    }>;
  };

  it.each(statsmodels.cases.map((c) => [`${c.table} ${c.measure}${c.vtype !== 'LS' ? ` (vtype ${c.vtype})` : ''} ${c.method}`, c] as const))(
    '%s agrees where statsmodels uses the same definitions',
    (_, ref) => {
      const base: MetaInput = { studies: TABLES[ref.table](), measure: ref.measure, vtype: ref.vtype };
      const fe = metaAnalyse({ ...base, method: 'FE' });
      for (const field of ['estimate', 'se', 'ci_lower', 'ci_upper'] as const) expectClose(fe[field], ref.fe[field], `FE ${field}`);
      expectClose(fe.Q, ref.q, 'Q');
      expectClose(fe.H2, ref.h2, 'FE H2 = Q/df');

      const re = metaAnalyse({ ...base, method: ref.method });
      if (ref.tau2_truncated) {
        // statsmodels keeps a negative DL estimate; metafor and the engine truncate it at 0.
        expect(ref.tau2).toBeLessThan(0);
        expect(re.tau2).toBe(0);
        return;
      }
      if (!ref.converged) {
        // statsmodels' PM iteration gave up and returned 0: right when Q(0) < k - 1, an overshoot otherwise.
        expect(ref.tau2).toBe(0);
        if (fe.Q < fe.df) expect(re.tau2).toBe(0);
        else expect(re.tau2).toBeGreaterThan(0);
        return;
      }
      expectClose(re.tau2, ref.tau2, 'tau2');
      for (const field of ['estimate', 'se', 'ci_lower', 'ci_upper'] as const) expectClose(re[field], ref.re[field], `RE ${field}`);
      ref.weights_re_percent.forEach((w, i) => expectClose(re.studies[i]!.weight, w, `weight ${i}`));
      const knha = metaAnalyse({ ...base, method: ref.method, knapp_hartung: true });
      expectClose(knha.se, ref.re.se_hksj, 'Knapp-Hartung se');
    },
  );
});

describe('metaAnalyse input', () => {
  const effects = (...pairs: Array<[number, number]>): StudyInput[] => pairs.map(([yi, vi], i) => ({ label: `S${i + 1}`, yi, vi }));
  const badInput = (input: unknown, message: RegExp) => {
    let caught: unknown;
    try {
      metaAnalyse(input as MetaInput);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(BadInput);
    expect((caught as BadInput).code).toBe('BAD_USER_INPUT');
    expect((caught as Error).message).toMatch(message);
  };

  it('pools effect sizes given directly, with sei in place of vi', () => {
    const withVi = metaAnalyse({ studies: effects([0.1, 0.04], [0.3, 0.09], [0.5, 0.01]), method: 'DL' });
    const withSei = metaAnalyse({
      studies: [
        { label: 'S1', yi: 0.1, sei: 0.2 },
        { label: 'S2', yi: 0.3, sei: 0.3 },
        { label: 'S3', yi: 0.5, sei: 0.1 },
      ],
      method: 'DL',
    });
    expect(withVi.measure).toBe('GEN');
    expect(withSei.estimate).toBeCloseTo(withVi.estimate, 14);
    expect(withSei.tau2).toBeCloseTo(withVi.tau2, 14);
  });

  it('states its conventions, including the convergence threshold', () => {
    const result = metaAnalyse({ studies: TABLES.bcg(), measure: 'logRR' });
    expect(result.convention.join('\n')).toMatch(/Fisher scoring .* < 1e-12/);
    expect(result.convention.join('\n')).toMatch(/back-transformation: exp/);
    expect(result.iterations).toBeGreaterThan(0);
  });

  it('rejects fewer than two studies', () => badInput({ studies: effects([0.1, 0.1]) }, /at least 2 studies \(got 1\)/));
  it('rejects a missing studies array', () => badInput({}, /"studies" must be an array/));
  it('rejects a zero variance, naming the study', () => badInput({ studies: effects([0.1, 0.1], [0.2, 0]) }, /study "S2": field "vi" must be > 0/));
  it('rejects a negative variance', () => badInput({ studies: effects([0.1, -0.1], [0.2, 0.1]) }, /study "S1": field "vi" must be > 0/));
  it('rejects NaN', () => badInput({ studies: effects([0.1, 0.1], [NaN, 0.1]) }, /study "S2": field "yi" must be a finite number/));
  it('rejects Infinity', () => badInput({ studies: effects([0.1, Infinity], [0.2, 0.1]) }, /study "S1": field "vi" must be a finite number/));
  it('rejects a string where a number belongs', () =>
    badInput({ studies: [{ label: 'A', yi: '0.1', vi: 0.1 }, { label: 'B', yi: 0.2, vi: 0.1 }] }, /study "A": field "yi" must be a finite number \(got "0.1"\)/));
  it('rejects a missing variance', () => badInput({ studies: [{ label: 'A', yi: 0.1 }, { label: 'B', yi: 0.2, vi: 0.1 }] }, /study "A": field "vi" is missing \(or give "sei"\)/));
  it('rejects a missing label, naming the position', () => badInput({ studies: [{ yi: 0.1, vi: 0.1 }, { label: 'B', yi: 0.2, vi: 0.1 }] }, /study #1: field "label"/));
  it('rejects a study without data', () => badInput({ studies: [{ label: 'A' }, { label: 'B', yi: 0.2, vi: 0.1 }] }, /study "A": no data/));
  it('rejects mixed kinds of input across studies', () =>
    badInput(
      { studies: [{ label: 'A', yi: 0.1, vi: 0.1 }, { label: 'B', ai: 1, bi: 2, ci: 3, di: 4 }], measure: 'logOR' },
      /study "B": gives 2x2 counts .* but study "A" gives effect sizes/,
    ));
  it('rejects a study that mixes kinds', () =>
    badInput({ studies: [{ label: 'A', yi: 0.1, vi: 0.1, m1i: 3 }, { label: 'B', yi: 0.2, vi: 0.1 }] }, /study "A": mixes effect sizes .* and two-group summaries/));
  it('requires a measure for counts', () => badInput({ studies: hineStudies() }, /"measure" is required .* logRR, logOR, RD/));
  it('rejects a measure that does not fit the data', () => badInput({ studies: hineStudies(), measure: 'SMD' }, /"measure" must be one of logRR, logOR, RD/));
  it('rejects a negative count', () =>
    badInput({ studies: [{ label: 'A', ai: -1, bi: 2, ci: 3, di: 4 }, { label: 'B', ai: 1, bi: 2, ci: 3, di: 4 }], measure: 'logOR' }, /study "A": field "ai" must be a count >= 0/));
  it('rejects events above the group size', () =>
    badInput({ studies: [{ label: 'A', ai: 5, n1i: 4, ci: 3, n2i: 9 }, { label: 'B', ai: 1, n1i: 4, ci: 3, n2i: 9 }], measure: 'RD' }, /study "A": field "ai" \(5\) exceeds "n1i" \(4\)/));
  it('rejects a group size below 1', () =>
    badInput({ studies: [{ label: 'A', ai: 0, n1i: 0, ci: 3, n2i: 9 }, { label: 'B', ai: 1, n1i: 4, ci: 3, n2i: 9 }], measure: 'RD' }, /study "A": field "n1i" must be a group size >= 1/));
  it('rejects an SD of 0', () => {
    const studies = TABLES.normand();
    studies[2] = { ...studies[2]!, sd2i: 0 };
    badInput({ studies, measure: 'MD' }, /study "Orpington-Moderate": field "sd2i" must be > 0/);
  });
  it('rejects a missing SD', () => {
    const studies = TABLES.normand();
    delete studies[4]!.sd1i;
    badInput({ studies, measure: 'SMD' }, /study "Montreal-Home": field "sd1i" is missing/);
  });
  it('rejects a fractional group size below 1 in summaries', () => {
    const studies = TABLES.normand();
    studies[0] = { ...studies[0]!, n2i: 0.5 };
    badInput({ studies, measure: 'MD' }, /study "Edinburgh": field "n2i" must be a group size >= 1/);
  });
  it('rejects a zero cell without a stated correction, naming the study and cell', () => {
    const studies = hineStudies().map((s, i) => (i === 1 ? { ...s, ci: 0 } : s));
    badInput({ studies, measure: 'logRR' }, /study "Mogensen": field "ci" is 0; state a zero-cell correction/);
    badInput({ studies, measure: 'RD' }, /study "Mogensen": field "ci" is 0/);
  });
  it('keeps a zero cell when told to, and then rejects the infinite log ratio', () => {
    const studies = hineStudies().map((s, i) => (i === 1 ? { ...s, ci: 0 } : s));
    expect(metaAnalyse({ studies, measure: 'RD', zero_cell: { add: 0, to: 'none' } }).k).toBe(6);
    badInput({ studies, measure: 'logOR', zero_cell: { add: 0, to: 'none' } }, /study "Mogensen": the log odds ratio effect size yi is not finite/);
  });
  it('rejects an unknown correction target', () =>
    badInput({ studies: hineStudies(), measure: 'RD', zero_cell: { add: 0.5, to: 'some' } }, /"zero_cell.to" must be one of only0, all, if0all, none/));
  it('rejects an unknown method', () => badInput({ studies: hineStudies(), measure: 'RD', method: 'SJ' }, /"method" must be one of REML, DL, PM, ML, HE, FE/));
  it('rejects a level given as a fraction', () => badInput({ studies: hineStudies(), measure: 'RD', level: 0.95 }, /"level" must be a confidence level in percent/));
  it('rejects a vtype the measure does not have', () => badInput({ studies: hineStudies(), measure: 'logRR', vtype: 'HO' }, /"vtype" must be one of LS for logRR/));
  it('rejects inconsistent group sizes', () =>
    badInput({ studies: [{ label: 'A', ai: 1, bi: 3, n1i: 5, ci: 3, di: 4 }, { label: 'B', ai: 1, bi: 2, ci: 3, di: 4 }], measure: 'logOR' }, /study "A": field "n1i" \(5\) differs from ai \+ bi \(4\)/));

  it('uses the level for every interval', () => {
    const r90 = metaAnalyse({ studies: TABLES.bcg(), measure: 'logRR', level: 90 });
    const r95 = metaAnalyse({ studies: TABLES.bcg(), measure: 'logRR' });
    expect(r90.ci_upper - r90.ci_lower).toBeLessThan(r95.ci_upper - r95.ci_lower);
    expectClose((r90.ci_upper - r90.ci_lower) / (r95.ci_upper - r95.ci_lower), 1.6448536269514722 / 1.959963984540054, 'CI width ratio');
    expect(r90.studies[0]!.ci_upper).toBeLessThan(r95.studies[0]!.ci_upper);
  });
});
