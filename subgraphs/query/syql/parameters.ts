import { BadInput } from '../../../lib/errors.js';
import type { Pos } from './ast.js';
import type { TConst, Ty } from './analysis.js';
import type { Parameters } from './plan.js';
import { syqlError } from './syntax-error.js';

export type ParamValue = string | number | boolean | null;

export function isScalar(v: unknown): v is ParamValue {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** Values one list may hold (an `IN $list` parameter or a literal list). */
export const MAX_LIST_VALUES = 10_000;
/** Characters of all parameter values together, as JSON. */
export const MAX_PARAMETER_CHARS = 1024 * 1024;

/**
 * Refuses parameter values SyQL has no use for (objects, non-finite numbers, nested lists), numbers beyond the
 * integers a double holds exactly (the engine would see another value), and more values than a query may carry.
 */
export function checkParameterValues(parameters: Parameters): void {
  let chars = 0;
  for (const [name, value] of Object.entries(parameters)) {
    const numbers = Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : typeof value === 'number' ? [value] : [];
    const huge = numbers.find((v) => Number.isFinite(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER);
    if (huge !== undefined) throw new BadInput(`parameter $${name}: numbers must lie within ±${Number.MAX_SAFE_INTEGER} (2^53 - 1), got ${huge}`);
    if (Array.isArray(value) && value.length > MAX_LIST_VALUES) {
      throw new BadInput(`parameter $${name}: a list may hold at most ${MAX_LIST_VALUES} values, got ${value.length}; split the query, or filter by class, type or region instead`);
    }
    chars += value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0);
    if (chars > MAX_PARAMETER_CHARS) throw new BadInput(`parameter $${name}: the parameters may hold at most ${MAX_PARAMETER_CHARS} characters together (as JSON)`);
    if (isScalar(value)) continue;
    if (Array.isArray(value)) {
      const bad = value.find((item) => !isScalar(item));
      if (bad === undefined && value.every(isScalar)) continue;
      throw new BadInput(`parameter $${name}: a list may hold only strings, finite numbers, booleans and nulls`);
    }
    throw new BadInput(`parameter $${name}: expected a string, a finite number, a boolean, null or a list of those, got ${describe(value)}`);
  }
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : typeof v;
}

function tyOfValue(v: string | number | boolean, integer?: boolean): Ty {
  if (typeof v === 'string') return { type: 'string', nullable: false };
  if (typeof v === 'boolean') return { type: 'boolean', nullable: false };
  return { type: (integer ?? Number.isInteger(v)) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? 'integer' : 'float', nullable: false };
}

export function constOf(v: ParamValue, integer?: boolean): TConst | { k: 'null'; t: Ty } {
  if (v === null) return { k: 'null', t: { type: 'null', nullable: true } };
  return { k: 'const', t: tyOfValue(v, integer), value: v };
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * Reads a query's parameters for the analysis: a parameter the query names must be given, and, once the whole query
 * has been read, every given parameter must have been named.
 */
export class ParameterReader {
  private readonly used = new Set<string>();

  constructor(private readonly parameters: Parameters) {}

  value(p: { name: string; pos: Pos }): unknown {
    if (!Object.prototype.hasOwnProperty.call(this.parameters, p.name)) {
      throw syqlError(p.pos, `parameter '$${p.name}' is not given: send it in parameters`, {
        candidates: Object.keys(this.parameters).map((k) => `$${k}`),
      });
    }
    this.used.add(p.name);
    return this.parameters[p.name];
  }

  /** A parameter in the place of one value. */
  scalar(p: { name: string; pos: Pos }): TConst | { k: 'null'; t: Ty } {
    const v = this.value(p);
    if (!isScalar(v)) throw syqlError(p.pos, `parameter $${p.name} is ${describe(v)}: only IN takes a list`);
    return constOf(v);
  }

  /** Throws for the parameters given that the query never named. */
  checkAllUsed(): void {
    const unused = Object.keys(this.parameters).filter((p) => !this.used.has(p));
    if (unused.length) {
      throw new BadInput(`parameter${unused.length > 1 ? 's' : ''} ${unused.map((p) => `$${p}`).join(', ')} ${unused.length > 1 ? 'are' : 'is'} not used by the query`);
    }
  }
}
