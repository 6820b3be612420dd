import { GraphQLError, GraphQLScalarType } from 'graphql';

const isCell = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** One result row: its values in the order of `columns` (string, number, boolean or null). */
export const SyqlRowScalar = new GraphQLScalarType({
  name: 'SyqlRow',
  description: 'One result row: a list of values (string, number, boolean or null) in the order of the columns.',
  serialize(v) {
    if (!Array.isArray(v) || !v.every(isCell)) throw new GraphQLError('SyqlRow must be a list of strings, numbers, booleans or nulls');
    return v;
  },
});

/** A bound value of a compiled query: a string, number, boolean, or a list of them. */
export const SyqlValueScalar = new GraphQLScalarType({
  name: 'SyqlValue',
  description: 'A value: string, number, boolean, null, or a list of those.',
  serialize: (v) => v,
});
