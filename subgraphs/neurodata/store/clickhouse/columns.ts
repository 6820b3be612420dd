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

/**
 * One row per synapse of a synapse-level connectome, ordered by its presynaptic side. A per-neuron synapse point
 * without a partner (neuPrint's shape) has the other side empty: a T-bar of neuron N is (pre N, post ''), a
 * postsynaptic density is (pre '', post N). Positions are in the dataset's coordinate unit (its metadata's
 * coordinate_unit and voxel_size); `roi` is the primary (non-overlapping) ROI the synapse lies in, '' for none.
 * `synapse_id` is the source's id as text, or when the source has none `<file>:<row>`; unique in a version.
 */
export const SYNAPSE_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['pre', 'String'],
  ['post', 'String'],
  ['synapse_id', 'String'],
  ['x', 'Float64'],
  ['y', 'Float64'],
  ['z', 'Float64'],
  ['roi', 'String'],
  ['confidence', 'Nullable(Float32)'],
  ['cleft_score', 'Nullable(Float32)'],
  ['connection_score', 'Nullable(Float32)'],
  ['size', 'Nullable(Float32)'],
  ['transmitter', 'String'],
  ['gaba', 'Nullable(Float32)'],
  ['ach', 'Nullable(Float32)'],
  ['glut', 'Nullable(Float32)'],
  ['oct', 'Nullable(Float32)'],
  ['ser', 'Nullable(Float32)'],
  ['da', 'Nullable(Float32)'],
] as const;

/** The transmitters whose per-synapse probabilities a synapse row carries, in SYNAPSE_COLUMNS order. */
export const TRANSMITTER_COLUMNS = ['gaba', 'ach', 'glut', 'oct', 'ser', 'da'] as const;

/**
 * Weight per (pre, post, ROI): derived from `synapses` by the store when the dataset has synapses with both
 * partners, or loaded from a per-neuropil connection file when only that is published. `roi` '' is the bucket of
 * synapses outside every primary ROI. `transmitter` is the connection's predicted transmitter, '' when unknown.
 * The per-pair `connections` rows of such a version are the sums of these over ROIs.
 */
export const ROI_CONNECTION_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['pre', 'String'],
  ['post', 'String'],
  ['roi', 'String'],
  ['weight', 'Float64'],
  ['transmitter', 'String'],
] as const;

/**
 * Per-neuron per-ROI counts (neuPrint's roiInfo), over primary ROIs and the '' bucket: `pre` synapses with the
 * neuron on the presynaptic side, `post` on the postsynaptic side, `upstream` synaptic inputs, `downstream` synaptic
 * outputs to known partners (NULL when the source gives the neuron's presynaptic sites without their partners).
 */
export const NEURON_ROI_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['neuron_id', 'String'],
  ['roi', 'String'],
  ['pre', 'UInt64'],
  ['post', 'UInt64'],
  ['upstream', 'UInt64'],
  ['downstream', 'Nullable(UInt64)'],
] as const;

/**
 * The well-known annotations of a neuron typed, any other column of the source kept in `extra` (a JSON object of
 * text values, keys sorted). '' where unknown. The `neurons` row of the same neuron carries the C. elegans-shaped
 * subset (docs/neurodata-tables.md says which annotation fills which column).
 */
export const NEURON_ANNOTATION_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['neuron_id', 'String'],
  ['instance', 'String'],
  ['type', 'String'],
  ['class', 'String'],
  ['super_class', 'String'],
  ['sub_class', 'String'],
  ['hemilineage', 'String'],
  ['side', 'String'],
  ['status', 'String'],
  ['transmitter', 'String'],
  ['transmitter_confidence', 'Nullable(Float32)'],
  ['soma_x', 'Nullable(Float64)'],
  ['soma_y', 'Nullable(Float64)'],
  ['soma_z', 'Nullable(Float64)'],
  ['extra', 'String'],
] as const;

/**
 * The ROI hierarchy of a version: `parent` '' for a root; primary ROIs do not overlap (a synapse lies in at most
 * one), the others are unions of their descendants. `term` is the brain-region ontology term (`FBbt:00003924`) it
 * maps to, '' when none matches.
 */
export const ROI_COLUMNS = [
  ['dataset_id', 'String'],
  ['version', 'UInt32'],
  ['roi', 'String'],
  ['parent', 'String'],
  ['is_primary', 'UInt8'],
  ['description', 'String'],
  ['term', 'String'],
] as const;

export const DATA_TABLES = {
  neurons: NEURON_COLUMNS,
  connections: CONNECTION_COLUMNS,
  morphologies: MORPHOLOGY_COLUMNS,
  synapses: SYNAPSE_COLUMNS,
  /** The same rows as `synapses`, ordered by the postsynaptic side: written by the store from `synapses`. */
  synapses_by_post: SYNAPSE_COLUMNS,
  roi_connections: ROI_CONNECTION_COLUMNS,
  /**
   * The same rows as `roi_connections`, ordered by ROI: written by the store from `roi_connections`, so that the
   * connections within a neuropil are one key range instead of a scan of every ROI's.
   */
  roi_connections_by_roi: ROI_CONNECTION_COLUMNS,
  neuron_rois: NEURON_ROI_COLUMNS,
  neuron_annotations: NEURON_ANNOTATION_COLUMNS,
  rois: ROI_COLUMNS,
} as const;
export type DataTable = keyof typeof DATA_TABLES;
