/**
 * A tiny tagged-template builder for ClickHouse SQL. Values never enter the text: each becomes a typed
 * placeholder `{pN:Type}`. Drivers that can bind parameters (chDB, ClickHouse >= 19.x) send them separately;
 * the old Debian server has no query parameters, so its driver renders each one as an escaped, typed literal.
 */
export type ChType = string;

export interface ChParam {
  readonly value: unknown;
  readonly type: ChType;
}

export interface ChQuery {
  readonly sql: string;
  readonly params: Record<string, ChParam>;
}

class Raw {
  constructor(readonly text: string) {}
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** An identifier (table, column) that has been checked against an allow-list by the caller or is a constant. */
export function ident(name: string): Raw {
  if (!IDENT.test(name)) throw new Error(`invalid ClickHouse identifier: ${name}`);
  return new Raw(name);
}

/** A value with an explicit ClickHouse type, for when inference is not enough (UInt32, DateTime64(3), ...). */
export function typed(value: unknown, type: ChType): ChParam {
  return { value, type };
}

function inferType(v: unknown): ChType {
  if (typeof v === 'string') return 'String';
  if (typeof v === 'boolean') return 'UInt8';
  if (typeof v === 'bigint') return 'Int64';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('non-finite number in ClickHouse query');
    return Number.isInteger(v) ? 'Int64' : 'Float64';
  }
  if (v instanceof Date) return "DateTime64(3, 'UTC')";
  if (Array.isArray(v)) {
    if (v.length === 0) return 'Array(String)';
    return `Array(${inferType(v[0])})`;
  }
  throw new Error(`cannot infer a ClickHouse type for ${typeof v}`);
}

function isParam(v: unknown): v is ChParam {
  return typeof v === 'object' && v !== null && 'type' in v && 'value' in v && Object.keys(v).length === 2;
}

/**
 * `ch\`SELECT count() FROM ${ident('t')} WHERE name = ${name}\`` -> placeholders and typed params.
 * Nested ChQuery fragments are spliced in with their params renumbered.
 */
export function ch(strings: TemplateStringsArray, ...values: unknown[]): ChQuery {
  const params: Record<string, ChParam> = {};
  let n = 0;
  let text = strings[0];
  values.forEach((v, i) => {
    if (v instanceof Raw) {
      text += v.text;
    } else if (isChQuery(v)) {
      const renamed: Record<string, string> = {};
      for (const [name, p] of Object.entries(v.params)) {
        renamed[name] = `p${n++}`;
        params[renamed[name]] = p;
      }
      // One pass, so a fresh name can never be renamed again.
      text += v.sql.replace(/\{(p\d+):/g, (m, name: string) => (renamed[name] ? `{${renamed[name]}:` : m));
    } else {
      const p = isParam(v) ? v : { value: v, type: inferType(v) };
      const name = `p${n++}`;
      params[name] = p;
      text += `{${name}:${p.type}}`;
    }
    text += strings[i + 1];
  });
  return { sql: text, params };
}

function isChQuery(v: unknown): v is ChQuery {
  return typeof v === 'object' && v !== null && 'sql' in v && 'params' in v;
}

/** Joins fragments with a separator (for IN lists, column lists, VALUES rows). */
export function join(parts: ChQuery[], separator = ', '): ChQuery {
  if (parts.length === 0) return { sql: '', params: {} };
  const strings = [''];
  for (let i = 1; i < parts.length; i++) strings.push(separator);
  strings.push('');
  return ch(Object.assign(strings, { raw: strings }) as unknown as TemplateStringsArray, ...parts);
}

/** Escapes a string as a ClickHouse single-quoted literal. */
export function quoteString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\0/g, '\\0').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

/** Renders a typed value as a literal for servers without query parameters. */
export function literal(p: ChParam): string {
  const { value, type } = p;
  if (value === null || value === undefined) {
    if (!type.startsWith('Nullable(')) throw new Error(`null for non-nullable ClickHouse type ${type}`);
    return 'NULL';
  }
  if (type.startsWith('Array(')) {
    if (!Array.isArray(value)) throw new Error(`expected an array for ${type}`);
    const inner = type.slice(6, -1);
    return `[${value.map((v) => literal({ value: v, type: inner })).join(', ')}]`;
  }
  const base = type.replace(/^Nullable\((.*)\)$/, '$1');
  if (/^U?Int\d+$/.test(base)) {
    const s = typeof value === 'bigint' ? value.toString() : String(Number(value));
    if (!/^-?\d+$/.test(s)) throw new Error(`invalid integer for ${type}`);
    return `to${base}(${s})`;
  }
  if (/^Float\d+$/.test(base)) {
    const x = Number(value);
    if (!Number.isFinite(x)) throw new Error(`invalid number for ${type}`);
    return `to${base}(${x})`;
  }
  if (base === 'String') return quoteString(String(value));
  if (base.startsWith('DateTime') || base === 'Date') {
    const d = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(d.getTime())) throw new Error(`invalid date for ${type}`);
    const iso = d.toISOString().replace('T', ' ').replace('Z', '');
    return base === 'Date' ? `toDate(${quoteString(iso.slice(0, 10))})` : `toDateTime(${quoteString(iso.slice(0, 19))}, 'UTC')`;
  }
  // Anything else goes through an explicit cast of a quoted literal.
  return `CAST(${quoteString(String(value))} AS ${base})`;
}

/** The query with every placeholder replaced by its literal. */
export function inline(q: ChQuery): string {
  return q.sql.replace(/\{(p\d+):([^}]+)\}/g, (m, name: string) => {
    const p = q.params[name];
    if (!p) throw new Error(`missing ClickHouse parameter ${name}`);
    return literal(p);
  });
}

/** Parameters in the plain form the bound-parameter drivers take. */
export function bindValues(q: ChQuery): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(q.params).map(([k, p]) => [k, p.value instanceof Date ? p.value.toISOString().replace('T', ' ').replace('Z', '') : p.value]),
  );
}
