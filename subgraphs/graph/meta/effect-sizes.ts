/**
 * Study-level effect sizes yi and sampling variances vi from what a study reports, with metafor's escalc() formulas
 * (docs/meta-analysis.md). Every check names the study by its label and the offending field, because the caller
 * usually has a spreadsheet open and needs to find the cell.
 */
import { BadInput } from '../../../lib/errors.js';
import { logGamma } from './distributions.js';
import {
  MEASURES,
  type EffectSize,
  type Measure,
  type MetaInput,
  type StudyInput,
  type VarianceType,
  type ZeroCellCorrection,
} from './meta.model.js';

type InputKind = 'effect' | 'counts' | 'means';

const KIND_FIELDS: Record<InputKind, readonly (keyof StudyInput)[]> = {
  effect: ['yi', 'vi', 'sei'],
  counts: ['ai', 'bi', 'ci', 'di'],
  means: ['m1i', 'sd1i', 'm2i', 'sd2i'],
};
const KIND_NAME: Record<InputKind, string> = {
  effect: 'effect sizes (yi with vi or sei)',
  counts: '2x2 counts (ai, bi, ci, di or ai, n1i, ci, n2i)',
  means: 'two-group summaries (m1i, sd1i, n1i, m2i, sd2i, n2i)',
};
const KIND_MEASURES: Record<InputKind, readonly Measure[]> = {
  effect: MEASURES,
  counts: ['logRR', 'logOR', 'RD'],
  means: ['MD', 'SMD'],
};
const ZERO_TARGETS = ['only0', 'all', 'if0all', 'none'] as const;
const VTYPES: Record<Measure, readonly VarianceType[]> = {
  GEN: ['LS'],
  logRR: ['LS'],
  logOR: ['LS'],
  RD: ['LS', 'UB'],
  MD: ['LS', 'UB', 'HO'],
  SMD: ['LS', 'UB'],
};

/** A study's name for messages: its label, or its position when the label itself is the problem. */
function nameOf(study: StudyInput | undefined, index: number): string {
  const label = study?.label;
  return typeof label === 'string' && label.trim() ? `study "${label}"` : `study #${index + 1}`;
}

const isPresent = (v: unknown) => v !== undefined && v !== null;

/**
 * The accepted range of effect sizes and sampling variances. Real effect sizes and variances lie far inside it;
 * beyond it the weights (1/vi) and their products with yi overflow to Infinity, and the pooled figures to NaN.
 */
export const YI_MAX = 1e6;
export const VI_MIN = 1e-12;
export const VI_MAX = 1e12;

class StudyReader {
  constructor(
    private readonly study: StudyInput,
    readonly name: string,
  ) {}

  has(field: keyof StudyInput): boolean {
    return isPresent(this.study[field]);
  }

  number(field: keyof StudyInput): number {
    const v = this.study[field];
    if (!isPresent(v)) throw new BadInput(`${this.name}: field "${field}" is missing`, { field });
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new BadInput(`${this.name}: field "${field}" must be a finite number (got ${JSON.stringify(v) ?? String(v)})`, { field });
    }
    return v;
  }

  positive(field: keyof StudyInput): number {
    const v = this.number(field);
    if (!(v > 0)) throw new BadInput(`${this.name}: field "${field}" must be > 0 (got ${v})`, { field });
    return v;
  }

  count(field: keyof StudyInput): number {
    const v = this.number(field);
    if (v < 0) throw new BadInput(`${this.name}: field "${field}" must be a count >= 0 (got ${v})`, { field });
    return v;
  }

  groupSize(field: keyof StudyInput): number {
    const v = this.number(field);
    if (v < 1) throw new BadInput(`${this.name}: field "${field}" must be a group size >= 1 (got ${v})`, { field });
    return v;
  }

  result(yi: number, vi: number, what: string): EffectSize {
    if (!Number.isFinite(yi)) throw new BadInput(`${this.name}: the ${what} effect size yi is not finite (${yi})`, { field: 'yi' });
    if (!(vi > 0) || !Number.isFinite(vi)) {
      throw new BadInput(`${this.name}: the ${what} sampling variance vi must be finite and > 0 (got ${vi})`, { field: 'vi' });
    }
    if (Math.abs(yi) > YI_MAX) {
      throw new BadInput(`${this.name}: the ${what} effect size yi must be between -${YI_MAX.toExponential()} and ${YI_MAX.toExponential()} (got ${yi})`, { field: 'yi' });
    }
    if (vi < VI_MIN || vi > VI_MAX) {
      throw new BadInput(`${this.name}: the ${what} sampling variance vi must be between ${VI_MIN.toExponential()} and ${VI_MAX.toExponential()} (got ${vi})`, { field: 'vi' });
    }
    return { label: this.study.label, yi, vi };
  }
}

function kindOf(study: StudyInput, name: string): InputKind {
  const kinds = (Object.keys(KIND_FIELDS) as InputKind[]).filter((k) => KIND_FIELDS[k].some((f) => isPresent(study[f])));
  if (kinds.length === 1) return kinds[0]!;
  if (kinds.length === 0) {
    throw new BadInput(`${name}: no data; give ${Object.values(KIND_NAME).join(', or ')}`, { field: 'yi' });
  }
  throw new BadInput(`${name}: mixes ${kinds.map((k) => KIND_NAME[k]).join(' and ')}; give one kind of data`, { field: KIND_FIELDS[kinds[1]!][0] });
}

interface Table2x2 {
  ai: number;
  bi: number;
  ci: number;
  di: number;
}

function readTable(r: StudyReader): Table2x2 {
  const ai = r.count('ai');
  const ci = r.count('ci');
  const other = (events: number, nonEvents: 'bi' | 'di', size: 'n1i' | 'n2i', eventsField: 'ai' | 'ci'): number => {
    if (r.has(nonEvents)) {
      const b = r.count(nonEvents);
      if (r.has(size) && r.number(size) !== events + b) {
        throw new BadInput(`${r.name}: field "${size}" (${r.number(size)}) differs from ${eventsField} + ${nonEvents} (${events + b})`, { field: size });
      }
      return b;
    }
    if (!r.has(size)) throw new BadInput(`${r.name}: field "${nonEvents}" is missing (or give "${size}")`, { field: nonEvents });
    const n = r.groupSize(size);
    if (events > n) throw new BadInput(`${r.name}: field "${eventsField}" (${events}) exceeds "${size}" (${n})`, { field: eventsField });
    return n - events;
  };
  const bi = other(ai, 'bi', 'n1i', 'ai');
  const di = other(ci, 'di', 'n2i', 'ci');
  if (ai + bi < 1) throw new BadInput(`${r.name}: group 1 is empty (ai + bi = 0)`, { field: 'n1i' });
  if (ci + di < 1) throw new BadInput(`${r.name}: group 2 is empty (ci + di = 0)`, { field: 'n2i' });
  return { ai, bi, ci, di };
}

const zeroField = (t: Table2x2) => (['ai', 'bi', 'ci', 'di'] as const).find((f) => t[f] === 0);

/** Applies the stated correction with metafor's semantics of `to`; with none stated, a zero cell is an error. */
function correctZeroCells(tables: Table2x2[], readers: StudyReader[], correction: ZeroCellCorrection | undefined): Table2x2[] {
  const anyZero = tables.some((t) => zeroField(t) !== undefined);
  if (!correction) {
    const i = tables.findIndex((t) => zeroField(t) !== undefined);
    if (i >= 0) {
      const field = zeroField(tables[i]!)!;
      throw new BadInput(
        `${readers[i]!.name}: field "${field}" is 0; state a zero-cell correction (zero_cell: { add: 0.5, to: "only0" }, or to: "none" to keep the zero)`,
        { field },
      );
    }
    return tables;
  }
  const shift = (t: Table2x2) => ({ ai: t.ai + correction.add, bi: t.bi + correction.add, ci: t.ci + correction.add, di: t.di + correction.add });
  switch (correction.to) {
    case 'none':
      return tables;
    case 'all':
      return tables.map(shift);
    case 'if0all':
      return anyZero ? tables.map(shift) : tables;
    case 'only0':
      return tables.map((t) => (zeroField(t) !== undefined ? shift(t) : t));
  }
}

function fromTable(r: StudyReader, t: Table2x2, measure: Measure, vtype: VarianceType): EffectSize {
  const n1 = t.ai + t.bi;
  const n2 = t.ci + t.di;
  const p1 = t.ai / n1;
  const p2 = t.ci / n2;
  switch (measure) {
    case 'logRR':
      return r.result(Math.log(p1) - Math.log(p2), 1 / t.ai - 1 / n1 + 1 / t.ci - 1 / n2, 'log risk ratio');
    case 'logOR':
      return r.result(Math.log(t.ai / t.bi) - Math.log(t.ci / t.di), 1 / t.ai + 1 / t.bi + 1 / t.ci + 1 / t.di, 'log odds ratio');
    default: {
      const shrink = vtype === 'UB' ? 1 : 0;
      return r.result(p1 - p2, (p1 * (1 - p1)) / (n1 - shrink) + (p2 * (1 - p2)) / (n2 - shrink), 'risk difference');
    }
  }
}

/** metafor's .cmicalc: the exact small-sample bias correction of Hedges' g, Γ(m/2) / (√(m/2) Γ((m−1)/2)). */
export function hedgesCorrection(m: number): number {
  return Math.exp(logGamma(m / 2) - Math.log(Math.sqrt(m / 2)) - logGamma((m - 1) / 2));
}

function fromMeans(r: StudyReader, measure: Measure, vtype: VarianceType): EffectSize {
  const m1 = r.number('m1i');
  const m2 = r.number('m2i');
  const sd1 = r.positive('sd1i');
  const sd2 = r.positive('sd2i');
  const n1 = r.groupSize('n1i');
  const n2 = r.groupSize('n2i');
  const m = n1 + n2 - 2;
  const pooledVar = ((n1 - 1) * sd1 * sd1 + (n2 - 1) * sd2 * sd2) / m;
  if (measure === 'MD') {
    if (vtype === 'HO' && !(m > 0)) throw new BadInput(`${r.name}: a pooled SD needs n1i + n2i > 2`, { field: 'n1i' });
    const vi = vtype === 'HO' ? pooledVar * (1 / n1 + 1 / n2) : (sd1 * sd1) / n1 + (sd2 * sd2) / n2;
    return r.result(m1 - m2, vi, 'mean difference');
  }
  if (!(m > 1)) throw new BadInput(`${r.name}: the SMD needs n1i + n2i > 3 (got ${n1 + n2})`, { field: 'n1i' });
  const c = hedgesCorrection(m);
  const yi = (c * (m1 - m2)) / Math.sqrt(pooledVar);
  const vi =
    vtype === 'UB'
      ? 1 / n1 + 1 / n2 + (1 - (m - 2) / (m * c * c)) * yi * yi
      : 1 / n1 + 1 / n2 + (yi * yi) / (2 * (n1 + n2));
  return r.result(yi, vi, 'standardised mean difference');
}

function fromEffect(r: StudyReader): EffectSize {
  const yi = r.number('yi');
  if (r.has('vi')) {
    const vi = r.number('vi');
    if (!(vi > 0)) throw new BadInput(`${r.name}: field "vi" must be > 0 (got ${vi})`, { field: 'vi' });
    return r.result(yi, vi, 'given');
  }
  if (!r.has('sei')) throw new BadInput(`${r.name}: field "vi" is missing (or give "sei")`, { field: 'vi' });
  const sei = r.positive('sei');
  return r.result(yi, sei * sei, 'given');
}

/**
 * yi and vi of every study, after validation. Throws BadInput for fewer than two studies, mixed kinds of data, a
 * measure that does not fit the data, and any missing, non-finite or out-of-range field.
 */
export function computeEffectSizes(input: Pick<MetaInput, 'studies' | 'measure' | 'vtype' | 'zero_cell'>): {
  measure: Measure;
  vtype: VarianceType;
  effects: EffectSize[];
} {
  const studies = input?.studies;
  if (!Array.isArray(studies)) throw new BadInput('field "studies" must be an array of studies', { field: 'studies' });
  if (studies.length < 2) throw new BadInput(`a meta-analysis needs at least 2 studies (got ${studies.length})`, { field: 'studies' });
  const readers = studies.map((s, i) => {
    const name = nameOf(s, i);
    if (typeof s !== 'object' || s === null) throw new BadInput(`${name}: must be an object`, { field: 'studies' });
    if (typeof s.label !== 'string' || !s.label.trim()) throw new BadInput(`${name}: field "label" must be a non-empty string`, { field: 'label' });
    return new StudyReader(s, name);
  });

  const kinds = studies.map((s, i) => kindOf(s, readers[i]!.name));
  const mixed = kinds.findIndex((k) => k !== kinds[0]);
  if (mixed >= 0) {
    throw new BadInput(
      `${readers[mixed]!.name}: gives ${KIND_NAME[kinds[mixed]!]} but ${readers[0]!.name} gives ${KIND_NAME[kinds[0]!]}; every study must give the same kind of data`,
      { field: KIND_FIELDS[kinds[mixed]!][0] },
    );
  }
  const kind = kinds[0]!;

  const measure = input.measure ?? (kind === 'effect' ? 'GEN' : undefined);
  if (measure === undefined) {
    throw new BadInput(`field "measure" is required for ${KIND_NAME[kind]}: one of ${KIND_MEASURES[kind].join(', ')}`, { field: 'measure' });
  }
  if (!KIND_MEASURES[kind].includes(measure)) {
    throw new BadInput(`field "measure" must be one of ${KIND_MEASURES[kind].join(', ')} for ${KIND_NAME[kind]} (got ${JSON.stringify(measure)})`, { field: 'measure' });
  }
  const vtype = input.vtype ?? 'LS';
  if (kind !== 'effect' && !VTYPES[measure].includes(vtype)) {
    throw new BadInput(`field "vtype" must be one of ${VTYPES[measure].join(', ')} for ${measure} (got ${JSON.stringify(vtype)})`, { field: 'vtype' });
  }

  if (kind === 'effect') return { measure, vtype: 'LS', effects: readers.map(fromEffect) };
  if (kind === 'means') return { measure, vtype, effects: readers.map((r) => fromMeans(r, measure, vtype)) };

  const correction = input.zero_cell;
  if (correction !== undefined) {
    if (typeof correction !== 'object' || correction === null || !(ZERO_TARGETS as readonly string[]).includes(correction.to)) {
      throw new BadInput(`field "zero_cell.to" must be one of ${ZERO_TARGETS.join(', ')}`, { field: 'zero_cell.to' });
    }
    if (typeof correction.add !== 'number' || !Number.isFinite(correction.add) || correction.add < 0) {
      throw new BadInput(`field "zero_cell.add" must be a finite number >= 0 (got ${JSON.stringify(correction.add)})`, { field: 'zero_cell.add' });
    }
  }
  const tables = correctZeroCells(readers.map(readTable), readers, correction);
  return { measure, vtype, effects: tables.map((t, i) => fromTable(readers[i]!, t, measure, vtype)) };
}
