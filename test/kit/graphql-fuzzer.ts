import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isRequiredArgument,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { anyValue, hostileString, poolFor, type FuzzPools, type Rng } from './request-fuzzer.js';

/**
 * Generated GraphQL operations over the API schema (test/http/graphql-fuzz.test.ts): one root field per operation,
 * its arguments drawn from values that fit (the pools' records), that are empty, at the ends of their type, null, or
 * of another type altogether, written into the document as literals or sent as variables (declared with the
 * argument's type, or now and then with another one). Deterministic for a seed.
 */

export interface GraphqlFuzzRequest {
  query: string;
  variables?: Record<string, unknown>;
}

/** An enum value written into a document (unquoted), or its name as a variable's value. */
class EnumName {
  constructor(readonly name: string) {}
}
/** A number as written in a document, beyond what a JavaScript number keeps (a 20-digit integer). */
class RawNumber {
  constructor(readonly text: string) {}
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Values of the scalars the schema defines itself: some that fit, and some each one's coercion must refuse. */
const CUSTOM_SCALARS: Record<string, { fit: unknown[]; wrong: unknown[] }> = {
  JSONObject: { fit: [{}, { a: 1, b: [true, null] }, { prefix: 'A', n: 3 }, { '': {} }], wrong: [5, [1, 2], 'x', '', true] },
  PerNodeSelection: { fit: [true, false, ['A1', 'B1'], []], wrong: ['x', '', 5, [1], { a: 1 }, [null]] },
  DateTime: { fit: ['2024-01-31T12:00:00Z'], wrong: ['2024-02-30T25:61:00Z', 'x', '', 0, 1e308, '9999999-01-01T00:00:00Z'] },
  TriadCounts: { fit: [], wrong: [{}, 'x', 5, [1]] },
  TriadValues: { fit: [], wrong: [{}, 'x', 5, [1]] },
};

function fittingScalar(r: Rng, name: string, argName: string, pools: FuzzPools): unknown {
  switch (name) {
    case 'Int':
      return r.pick([0, 1, 3, 10, -1, 2147483647, -2147483648, 100_000]);
    case 'Float':
      return r.pick([0, 0.5, -1, 1e308, -1e308, 5e-324, 3.14]);
    case 'Boolean':
      return r.chance(0.5);
    case 'String':
    case 'ID': {
      const pool = poolFor(argName);
      const values = pool ? pools[pool] : undefined;
      if (r.chance(0.1)) return '';
      if (values?.length && r.chance(0.8)) return r.pick(values);
      return hostileString(r).slice(0, r.pick([40, 5000]));
    }
    default: {
      const custom = CUSTOM_SCALARS[name];
      return custom?.fit.length ? r.pick(custom.fit) : anyValue(r);
    }
  }
}

/** A value of the wrong type for `type`, or one at the edge of it: what a client sends by mistake or on purpose. */
function wrongValue(r: Rng, type: GraphQLInputType): unknown {
  const named = getNamedType(type);
  if (isScalarType(named) && CUSTOM_SCALARS[named.name] && r.chance(0.7)) return r.pick(CUSTOM_SCALARS[named.name]!.wrong);
  return r.pick<unknown>([
    '',
    '',
    'x',
    new RawNumber('99999999999999999999'),
    new RawNumber('-99999999999999999999'),
    2147483648,
    -1,
    1.5,
    1e308,
    true,
    [],
    [1, 'a'],
    {},
    { x: 1 },
    new EnumName('NOT_A_VALUE'),
    null,
  ]);
}

function valueOf(r: Rng, type: GraphQLInputType, argName: string, pools: FuzzPools, depth: number, wrongRate: number): unknown {
  if (r.chance(wrongRate)) return wrongValue(r, type);
  if (isNonNullType(type)) return valueOf(r, type.ofType, argName, pools, depth, wrongRate);
  if (r.chance(wrongRate / 2)) return null;
  if (isListType(type)) {
    if (r.chance(wrongRate)) return valueOf(r, type.ofType, argName, pools, depth + 1, wrongRate); // a single value for a list
    const n = r.pick([0, 1, 2, 3, 3, 1000]);
    return Array.from({ length: depth > 1 ? Math.min(n, 2) : n }, () => valueOf(r, type.ofType as GraphQLInputType, argName, pools, depth + 1, wrongRate));
  }
  if (isEnumType(type)) {
    const values = type.getValues();
    return r.chance(0.85) ? new EnumName(r.pick(values).name) : r.pick([new EnumName('nope'), new EnumName(values[0]!.name.toUpperCase() + 'X'), values[0]!.name]);
  }
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    if (depth > 3) return out;
    for (const f of Object.values(type.getFields())) {
      if (isNonNullType(f.type) ? r.chance(0.95) : r.chance(0.5)) out[f.name] = valueOf(r, f.type, f.name, pools, depth + 1, wrongRate);
    }
    if (r.chance(wrongRate / 3)) out.not_a_field = 'x';
    return out;
  }
  if (isScalarType(type)) return fittingScalar(r, type.name, argName, pools);
  return null;
}

/** A value as GraphQL text. */
function literal(v: unknown): string {
  if (v instanceof EnumName) return v.name;
  if (v instanceof RawNumber) return v.text;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${NAME.test(k) ? k : 'bad_key'}: ${literal(x)}`)
    .join(', ')}}`;
}

/** A value as a variable's JSON. */
function json(v: unknown): unknown {
  if (v instanceof EnumName) return v.name;
  if (v instanceof RawNumber) return Number(v.text);
  if (Array.isArray(v)) return v.map(json);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, json(x)]));
  return v;
}

/** Leaf fields and a few nested objects' leaves, skipping fields that need arguments: enough to complete values. */
function selectionOf(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const parts: string[] = [];
  let objects = 0;
  for (const f of Object.values(named.getFields())) {
    if (f.args.some(isRequiredArgument)) continue;
    const inner = getNamedType(f.type);
    if (isLeafType(inner)) parts.push(f.name);
    else if (depth < 2 && objects < 3) {
      objects++;
      parts.push(`${f.name} ${selectionOf(f.type, depth + 1)}`);
    }
  }
  return `{ ${parts.length ? parts.join(' ') : '__typename'} }`;
}

/** A wrong value for a targeted argument: of an input object, mostly one that fits but for one of its fields. */
function targetedValue(r: Rng, type: GraphQLInputType, pools: FuzzPools): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (!isInputObjectType(inner) || r.chance(0.3)) return wrongValue(r, type);
  const value = valueOf(r, inner, '', pools, 0, 0) as Record<string, unknown>;
  const field = r.pick(Object.values(inner.getFields()));
  value[field.name] = wrongValue(r, field.type);
  return value;
}

/**
 * The operation's text and variables for one root field. With `target` (an argument's name), every other argument
 * fits and that one is given a wrong or edge value, so that the refusal seen is that argument's; without, anything
 * goes, at a rate of wrong values per argument.
 */
export function generateOperation(r: Rng, kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, pools: FuzzPools, target?: string): GraphqlFuzzRequest {
  const asVariables = r.chance(0.5);
  const args: string[] = [];
  const declared: string[] = [];
  const variables: Record<string, unknown> = {};
  field.args.forEach((arg: GraphQLArgument, i) => {
    // A required argument left out now and then, an optional one half of the time.
    const targeted = arg.name === target;
    if (!targeted && (target !== undefined ? !isRequiredArgument(arg) && r.chance(0.5) : isRequiredArgument(arg) ? r.chance(0.05) : r.chance(0.5))) return;
    const value = targeted ? targetedValue(r, arg.type, pools) : valueOf(r, arg.type, arg.name, pools, 0, target !== undefined ? 0 : 0.15);
    if (asVariables) {
      const name = `v${i}`;
      // Mostly the argument's own type (the value then meets the scalar's coercion), sometimes another one.
      const declaredType = target !== undefined || r.chance(0.9) ? String(arg.type) : r.pick(['String', 'Int', 'JSONObject', '[String!]', 'Boolean!']);
      declared.push(`$${name}: ${declaredType}`);
      args.push(`${arg.name}: $${name}`);
      if (target !== undefined || !r.chance(0.05)) variables[name] = json(value);
    } else {
      args.push(`${arg.name}: ${literal(value)}`);
    }
  });
  const call = `${field.name}${args.length ? `(${args.join(', ')})` : ''} ${selectionOf(field.type)}`.trim();
  const query = `${kind}${declared.length ? ` (${declared.join(', ')})` : ''} { ${call} }`;
  return asVariables ? { query, variables } : { query };
}

/**
 * The root fields in the order the test sends them: queries, then mutations, with those that end a session or
 * remove records last, so the others still find their caller signed in and the fixtures in place.
 */
export function rootFields(schema: GraphQLSchema): { kind: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> }[] {
  const destructive = (name: string) => /^(delete|remove|revoke|logout|unlink|changePassword|cancel)/.test(name);
  const queries = Object.values(schema.getQueryType()?.getFields() ?? {}).map((field) => ({ kind: 'query' as const, field }));
  const mutations = Object.values(schema.getMutationType()?.getFields() ?? {}).map((field) => ({ kind: 'mutation' as const, field }));
  return [...queries, ...mutations.filter((m) => !destructive(m.field.name)), ...mutations.filter((m) => destructive(m.field.name))];
}
