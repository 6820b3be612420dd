import { describe, it, expect } from 'vitest';
import { buildSchema } from 'graphql';
import { renderOperationTypes } from './web-operation-types.js';

const schema = buildSchema(`
  scalar DateTime
  scalar Blob
  enum Colour { RED GREEN }
  interface Node { id: ID! }
  type Cell implements Node { id: ID! colour: Colour! born: DateTime picture: Blob }
  type Synapse implements Node { id: ID! weight: Float }
  input Filter { colour: Colour = RED, ids: [ID!]!, nested: Filter }
  type Query { node(id: ID!): Node, cells(filter: Filter, first: Int! = 10): [Cell]! }
`);

/** The generated text for one operation. */
const typesOf = (key: string, text: string) => renderOperationTypes(schema, { [key]: text });

describe('renderOperationTypes', () => {
  it('types an abstract field per possible type: its __typename, inline fragments and named fragments', () => {
    const text = typesOf('look', `query look($id: ID!) { node(id: $id) { __typename id ... on Cell { colour } ...SynapseFields } }
      fragment SynapseFields on Synapse { weight }`);
    expect(text).toContain(`export type LookResult = {
  node: {
    __typename: 'Cell';
    id: string;
    colour: Colour;
  } | {
    __typename: 'Synapse';
    id: string;
    weight: number | null;
  } | null;
};`);
    expect(text).toContain("export type Colour = 'RED' | 'GREEN';\n");
  });

  it('gives an abstract field one type when every possible type has the same fields', () => {
    expect(typesOf('plain', 'query plain { node(id: "1") { id } }')).toContain(`export type PlainResult = {
  node: {
    id: string;
  } | null;
};`);
  });

  it('types aliases, lists of nullable items, custom scalars and fields under @include', () => {
    const text = typesOf('cellList', 'query cellList($born: Boolean!) { all: cells { id born @include(if: $born) } }');
    expect(text).toContain(`export type CellListResult = {
  all: Array<{
    id: string;
    born?: DateTime | null;
  } | null>;
};`);
    expect(text).toContain('export type DateTime = string | Date;');
  });

  it('makes nullable variables and those with a default optional, and declares the input objects they reach', () => {
    const text = typesOf('filtered', 'query filtered($filter: Filter, $first: Int! = 5, $id: ID!) { cells(filter: $filter, first: $first) { id } node(id: $id) { id } }');
    expect(text).toContain(`export type FilteredVariables = {
  filter?: Filter | null;
  first?: number;
  id: string;
};`);
    expect(text).toContain(`export type Filter = {
  colour?: Colour | null;
  ids: string[];
  nested?: Filter | null;
};`);
  });

  it('declares the map types keyed like OPERATIONS, and no variables as an empty record', () => {
    const text = typesOf('plain', 'query plain { node(id: "1") { id } }');
    expect(text).toContain('export type PlainVariables = Record<string, never>;');
    expect(text).toContain('export type OperationResults = {\n  plain: PlainResult;\n};');
    expect(text).toContain('export type OperationVariables = {\n  plain: PlainVariables;\n};');
  });

  it('refuses a scalar it has no TypeScript type for', () => {
    expect(() => typesOf('picture', 'query picture { cells { picture } }')).toThrow('no TypeScript type for the scalar Blob: add it to CUSTOM_SCALARS in scripts/web-operation-types.ts');
  });
});
