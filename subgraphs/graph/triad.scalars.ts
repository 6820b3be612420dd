import { GraphQLScalarType, GraphQLError, Kind } from 'graphql';
import { TRIAD_CODES } from '../../domain/triad-codes.js';
import { refusingAsBadInput } from '../../schema/scalars.js';

const listed = TRIAD_CODES.join(', ');

function checked(value: unknown, allowNull: boolean, name: string): Record<string, number | null> {
  if (typeof value !== 'object' || value === null) throw new GraphQLError(`${name} must be an object keyed by triad class`);
  const v = value as Record<string, unknown>;
  const out: Record<string, number | null> = {};
  for (const code of TRIAD_CODES) {
    const x = v[code];
    if (typeof x === 'number' && Number.isFinite(x)) out[code] = x;
    else if (x === null && allowNull) out[code] = null;
    else throw new GraphQLError(`${name}: ${code} must be a number`);
  }
  return out;
}

/**
 * Triad classes cannot be GraphQL field names (they start with a digit), so a census travels as one object keyed
 * by class, in the standard order; the REST document spells out its 16 properties.
 */
export const TriadCountsScalar = refusingAsBadInput(new GraphQLScalarType({
  name: 'TriadCounts',
  description: `Exact count per triad class: an object with the keys ${listed}, in that order.`,
  serialize: (v) => checked(v, false, 'TriadCounts'),
  parseValue: (v) => checked(v, false, 'TriadCounts'),
}));

export const TriadValuesScalar = refusingAsBadInput(new GraphQLScalarType({
  name: 'TriadValues',
  description: `A number per triad class (null where it is undefined): an object with the keys ${listed}, in that order.`,
  serialize: (v) => checked(v, true, 'TriadValues'),
  parseValue: (v) => checked(v, true, 'TriadValues'),
}));

/** The engine's census (an array in TRIAD_CODES order) as the object clients read. */
export function triadObject<T>(values: ArrayLike<T>): Record<string, T> {
  const out: Record<string, T> = {};
  TRIAD_CODES.forEach((code, i) => (out[code] = values[i]));
  return out;
}

/** `per_node`: true for every cell, false for none, or the cells' ids or names. */
export const PerNodeScalar = refusingAsBadInput(new GraphQLScalarType({
  name: 'PerNodeSelection',
  description: 'true (every cell), false (none), or a list of neuron ids or names',
  serialize: (v) => v,
  parseValue: (v) => perNode(v),
  parseLiteral: (ast) => {
    if (ast.kind === Kind.BOOLEAN) return ast.value;
    if (ast.kind === Kind.LIST) return perNode(ast.values.map((x) => (x.kind === Kind.STRING ? x.value : null)));
    throw new GraphQLError('per_node must be true, false or a list of neuron ids or names');
  },
}));

function perNode(v: unknown): boolean | string[] {
  if (typeof v === 'boolean') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw new GraphQLError('per_node must be true, false or a list of neuron ids or names');
}
