import type { NodeLabel, RelType } from './ast.js';
import type { ValueType } from './plan.js';

/**
 * Everything SyQL may touch in the column store (docs/neurodata-tables.md), in one place: the node labels and the
 * table behind each, their properties with the column, type and nullability of each, the relationship types and their
 * properties. The planner resolves names only against this catalogue, and the compiler writes only the identifiers
 * and expressions listed here into SQL text; every other value is a bound parameter.
 */

export interface PropertyDef {
  /** The SyQL name (`class`). */
  name: string;
  /** The SQL expression over the table's own columns that gives the value (`cell_class`, `toString(synapse_type)`). */
  column: string;
  /** The ClickHouse type of that expression as stored (`String`, `UInt8`, `UInt32`, `Nullable(Float64)`). */
  chType: string;
  type: ValueType;
  nullable: boolean;
}

export interface LabelDef {
  label: NodeLabel;
  table: 'neurons' | 'morphologies';
  /** The properties that identify one node of the label (one row of its table) within a dataset version. */
  key: readonly string[];
  /** In `RETURN a` order. */
  properties: readonly PropertyDef[];
}

const string = (name: string, column = name): PropertyDef => ({ name, column, chType: 'String', type: 'string', nullable: false });
const nullableFloat = (name: string, column = name): PropertyDef => ({ name, column, chType: 'Nullable(Float64)', type: 'float', nullable: true });
const count = (name: string): PropertyDef => ({ name, column: name, chType: 'UInt32', type: 'integer', nullable: false });

export const LABELS: Record<NodeLabel, LabelDef> = {
  Neuron: {
    label: 'Neuron',
    table: 'neurons',
    key: ['id'],
    properties: [
      string('id', 'neuron_id'),
      string('name'),
      string('class', 'cell_class'),
      string('type', 'cell_type'),
      string('neurotransmitter'),
      string('region', 'region_code'),
      { name: 'is_neuron', column: 'is_neuron', chType: 'UInt8', type: 'boolean', nullable: false },
      nullableFloat('x'),
      nullableFloat('y'),
      nullableFloat('z'),
    ],
  },
  Morphology: {
    label: 'Morphology',
    table: 'morphologies',
    // One row per morphology file of a neuron.
    key: ['neuron', 'file'],
    properties: [
      string('neuron'),
      string('file'),
      count('n_points'),
      count('n_soma_points'),
      count('n_stems'),
      count('n_bifurcations'),
      count('n_tips'),
      { name: 'total_length', column: 'total_length', chType: 'Float64', type: 'float', nullable: false },
      nullableFloat('soma_x'),
      nullableFloat('soma_y'),
      nullableFloat('soma_z'),
    ],
  },
};

export const LABEL_NAMES = Object.keys(LABELS) as NodeLabel[];

/** The column of `neurons` that identifies a Neuron (semijoins select it). */
export const NEURON_KEY_COLUMN = 'neuron_id';

/** The relationship types as written in patterns. `Synapse` is either kind; HAS_MORPHOLOGY joins a neuron to its morphologies. */
export const REL_TYPES: readonly RelType[] = ['Chemical', 'Electrical', 'Synapse', 'HAS_MORPHOLOGY'];

/** The `synapse_type` values of `connections` each synapse relationship type covers. */
export const SYNAPSE_KINDS: Record<Exclude<RelType, 'HAS_MORPHOLOGY'>, readonly ('chemical' | 'electrical')[]> = {
  Chemical: ['chemical'],
  Electrical: ['electrical'],
  Synapse: ['chemical', 'electrical'],
};

/** Properties of a single-hop synapse relationship (a row of `connections`). */
export const SYNAPSE_PROPERTIES: readonly PropertyDef[] = [
  { name: 'weight', column: 'weight', chType: 'Float64', type: 'float', nullable: false },
  // The enum as text, so that comparing with any string is simply false (an enum compared with an unknown name fails).
  { name: 'type', column: 'toString(synapse_type)', chType: 'String', type: 'string', nullable: false },
];

/** The one property of a variable-length relationship: the fewest hops that join its two ends. */
export const PATH_PROPERTIES: readonly PropertyDef[] = [{ name: 'hops', column: 'hops', chType: 'UInt8', type: 'integer', nullable: false }];

/** HAS_MORPHOLOGY has no properties. */
export const HAS_MORPHOLOGY_PROPERTIES: readonly PropertyDef[] = [];

/** The tables SyQL reads; every read filters them on (dataset_id, version) first. */
export const TABLES = { neurons: 'neurons', connections: 'connections', morphologies: 'morphologies' } as const;

/** The ClickHouse type a result column of this SyQL type has (`Nullable(...)` when it may be null). */
export function chTypeOf(type: ValueType, nullable: boolean): string {
  const base = type === 'string' ? 'String' : type === 'integer' ? 'Int64' : type === 'float' ? 'Float64' : 'UInt8';
  return nullable ? `Nullable(${base})` : base;
}
