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
  type Query { node(id: ID!): Node, cells(filter: Filter, first: Int! = 10): [Cell]!, synapses: [Synapse!]! }
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
  } | SynapseFields & {
    __typename: 'Synapse';
    id: string;
  } | null;
};`);
    expect(text).toContain('export type SynapseFields = {\n  weight: number | null;\n};');
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

  it('declares a type per named fragment, which a selection that takes the fragment whole refers to', () => {
    const text = typesOf('cellsAndNode', `query cellsAndNode { node(id: "1") { ...NodeFields } cells { ...CellFields born } }
      fragment NodeFields on Node { id }
      fragment CellFields on Cell { ...NodeFields colour }`);
    expect(text).toContain('/** The fragment CellFields (web/operations.ts). */\nexport type CellFields = NodeFields & {\n  colour: Colour;\n};\n\n/** The fragment NodeFields');
    expect(text).toContain('export type NodeFields = {\n  id: string;\n};');
    expect(text).toContain(`export type CellsAndNodeResult = {
  node: NodeFields | null;
  cells: Array<CellFields & {
    born: DateTime | null;
  } | null>;
};`);
  });

  it('writes out the fields of a fragment spread under @include, or sharing a response key with another selection', () => {
    const text = typesOf('partly', `query partly($full: Boolean!) { cells { ...CellFields @include(if: $full) } synapses { id ...SynapseFields } }
      fragment CellFields on Cell { id colour }
      fragment SynapseFields on Synapse { id weight }`);
    expect(text).toContain(`export type PartlyResult = {
  cells: Array<{
    id?: string;
    colour?: Colour;
  } | null>;
  synapses: {
    id: string;
    weight: number | null;
  }[];
};`);
    expect(text).toContain('export type CellFields = {\n  id: string;\n  colour: Colour;\n};');
  });

  it('declares a fragment defined by several operations once, also on different types, when its definitions type the same', () => {
    const text = renderOperationTypes(schema, {
      cellIds: 'query cellIds { cells { ...Ids } } fragment Ids on Cell { id }',
      synapseIds: 'query synapseIds { synapses { ...Ids } } fragment Ids on Synapse { id }',
    });
    expect(text.match(/export type Ids = /g)).toHaveLength(1);
    expect(text).toContain('export type CellIdsResult = {\n  cells: Array<Ids | null>;\n};');
    expect(text).toContain('export type SynapseIdsResult = {\n  synapses: Ids[];\n};');
  });

  it('refuses one fragment name whose definitions type differently, and a fragment named like another type', () => {
    expect(() =>
      renderOperationTypes(schema, {
        cellIds: 'query cellIds { cells { ...Ids } } fragment Ids on Cell { id }',
        weights: 'query weights { synapses { ...Ids } } fragment Ids on Synapse { weight }',
      }),
    ).toThrow('fragment Ids: its definitions in cellIds and weights type differently; give them different names');
    expect(() => typesOf('colours', 'query colours { cells { ...Colour } } fragment Colour on Cell { colour }')).toThrow('two types named Colour: rename the fragment or the operation');
  });

  it('refuses a scalar it has no TypeScript type for', () => {
    expect(() => typesOf('picture', 'query picture { cells { picture } }')).toThrow('no TypeScript type for the scalar Blob: add it to CUSTOM_SCALARS in scripts/web-operation-types.ts');
  });
});
