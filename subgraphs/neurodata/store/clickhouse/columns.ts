/**
 * The column store's data tables of the neurodata subgraph, as the read contract other subgraphs use
 * (docs/neurodata-tables.md). Every row carries (dataset_id, version); a published version's rows never change.
 * The TSV encoders of the ingest tasks and the DDL both follow these column orders.
 */
export const NEURON_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['neuron_id', 'String'],
  ['name', 'String'],
  ['cell_class', 'String'],
  ['cell_type', 'String'],
  ['neurotransmitter', 'String'],
  ['is_neuron', 'UInt8'],
  ['region_code', 'String'],
  ['x', 'Nullable(Float64)'],
  ['y', 'Nullable(Float64)'],
  ['z', 'Nullable(Float64)'],
] as const;

export const CONNECTION_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['pre', 'String'],
  ['post', 'String'],
  ['synapse_type', "Enum8('chemical' = 1, 'electrical' = 2)"],
  ['weight', 'Float64'],
] as const;

export const MORPHOLOGY_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['neuron', 'String'],
  ['file', 'String'],
  ['object_key', 'String'],
  ['sha256', 'String'],
  ['n_points', 'UInt32'],
  ['n_soma_points', 'UInt32'],
  ['n_stems', 'UInt32'],
  ['n_bifurcations', 'UInt32'],
  ['n_tips', 'UInt32'],
  ['total_length', 'Float64'],
  ['soma_x', 'Nullable(Float64)'],
  ['soma_y', 'Nullable(Float64)'],
  ['soma_z', 'Nullable(Float64)'],
  ['min_x', 'Float64'],
  ['min_y', 'Float64'],
  ['min_z', 'Float64'],
  ['max_x', 'Float64'],
  ['max_y', 'Float64'],
  ['max_z', 'Float64'],
] as const;

export const DATA_TABLES = { neurons: NEURON_COLUMNS, connections: CONNECTION_COLUMNS, morphologies: MORPHOLOGY_COLUMNS } as const;
export type DataTable = keyof typeof DATA_TABLES;
