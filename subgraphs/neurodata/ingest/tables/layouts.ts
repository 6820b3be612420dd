import { BadInput } from '../../../../lib/errors.js';

/**
 * Which synapse-level table a file holds and how its columns map to ours, told from the column names
 * (case-insensitive) as the published FlyWire, CAVE, neuPrint and Codex files name them (docs/neurodata.md,
 * "Synapse-level tables"). Pure: the request thread recognises the layout from the header or schema, the worker
 * tasks encode by it; a Layout is plain data so that it crosses between threads.
 */

export type TableKind = 'synapses' | 'roi_connections' | 'annotations' | 'rois';
export const TABLE_KINDS: readonly TableKind[] = ['synapses', 'roi_connections', 'annotations', 'rois'];

/** Our field names per kind: what a column mapping maps to. */
export const FIELDS = {
  synapses: ['pre', 'post', 'synapse_id', 'x', 'y', 'z', 'position', 'roi', 'confidence', 'cleft_score', 'connection_score', 'size', 'transmitter', 'gaba', 'ach', 'glut', 'oct', 'ser', 'da', 'body', 'type', 'partner'],
  roi_connections: ['pre', 'post', 'roi', 'weight', 'transmitter', 'gaba', 'ach', 'glut', 'oct', 'ser', 'da'],
  annotations: ['neuron_id', 'instance', 'type', 'class', 'super_class', 'sub_class', 'hemilineage', 'side', 'status', 'transmitter', 'transmitter_confidence', 'soma_x', 'soma_y', 'soma_z', 'soma', 'roi_info'],
  rois: ['roi', 'parent', 'primary', 'description', 'term', 'category'],
} as const satisfies Record<TableKind, readonly string[]>;
export type Field<K extends TableKind = TableKind> = (typeof FIELDS)[K][number];

/** A column mapping given with an upload: our field name -> the file's column name. */
export type ColumnMapping = Partial<Record<string, string>>;

export interface Layout {
  kind: TableKind;
  /** The recognised layout (`flywire_synapses`, `cave_synapses`, ...), or `mapping` when a mapping made it. */
  name: string;
  /** Our field -> the index of the file's column. */
  columns: Partial<Record<string, number>>;
  /** The file's column names, as written. */
  names: string[];
  /** Whether ids must be integers (every published layout); a mapping's ids may be text. */
  integerIds: boolean;
  /** neuPrint per-neuron synapses: the neuron's bodyId from the file name when no column gives it. */
  bodyId?: string;
  /** Columns not mapped to a field (kept in `extra` for annotations). */
  ignored: number[];
}

type Aliases = Partial<Record<string, readonly string[]>>;

const PROBABILITIES = (suffix: string): Aliases => Object.fromEntries(['gaba', 'ach', 'glut', 'oct', 'ser', 'da'].map((t) => [t, [`${t}${suffix}`]]));

interface LayoutRule {
  name: string;
  /** Column sets, any of which marks the layout (every name of one set present). */
  signature: readonly (readonly string[])[];
  aliases: Aliases;
}

const SYNAPSE_LAYOUTS: readonly LayoutRule[] = [
  {
    name: 'flywire_synapses',
    signature: [
      ['pre_pt_root_id', 'post_pt_root_id', 'post_x'],
      ['pre_pt_root_id', 'post_pt_root_id', 'pre_x'],
    ],
    aliases: {
      pre: ['pre_pt_root_id'],
      post: ['post_pt_root_id'],
      synapse_id: ['id', 'synapse_id'],
      // The postsynaptic point, as FlyWire's own tools place a synapse; the presynaptic one when only it is given.
      x: ['post_x', 'pre_x'],
      y: ['post_y', 'pre_y'],
      z: ['post_z', 'pre_z'],
      roi: ['neuropil'],
      cleft_score: ['cleft_score'],
      connection_score: ['connection_score'],
      transmitter: ['nt_type', 'transmitter'],
      ...PROBABILITIES(''),
    },
  },
  {
    name: 'cave_synapses',
    signature: [
      ['pre_pt_root_id', 'post_pt_root_id', 'ctr_pt_position'],
      ['pre_pt_root_id', 'post_pt_root_id', 'ctr_pt_position_x'],
      ['pre_pt_root_id', 'post_pt_root_id', 'post_pt_position'],
      ['pre_pt_root_id', 'post_pt_root_id', 'post_pt_position_x'],
    ],
    aliases: {
      pre: ['pre_pt_root_id'],
      post: ['post_pt_root_id'],
      synapse_id: ['id'],
      position: ['ctr_pt_position', 'post_pt_position'],
      x: ['ctr_pt_position_x', 'post_pt_position_x'],
      y: ['ctr_pt_position_y', 'post_pt_position_y'],
      z: ['ctr_pt_position_z', 'post_pt_position_z'],
      size: ['size'],
      roi: ['neuropil', 'roi'],
      ...PROBABILITIES(''),
    },
  },
  {
    // neuprint-python fetch_synapse_connections: one row per connection with both sides' points.
    name: 'neuprint_synapse_connections',
    signature: [['bodyid_pre', 'bodyid_post']],
    aliases: {
      pre: ['bodyid_pre'],
      post: ['bodyid_post'],
      x: ['x_post', 'x_pre'],
      y: ['y_post', 'y_pre'],
      z: ['z_post', 'z_pre'],
      roi: ['roi_post', 'roi_pre'],
      confidence: ['confidence_post', 'confidence_pre'],
    },
  },
  {
    // neuprint-python fetch_synapses: one neuron's T-bars (type pre) and PSDs (type post).
    name: 'neuprint_synapses',
    signature: [
      ['type', 'x', 'y', 'z', 'roi'],
      ['type', 'x', 'y', 'z', 'bodyid'],
    ],
    aliases: {
      body: ['bodyid', 'body_id'],
      type: ['type'],
      partner: ['partner', 'partner_id'],
      x: ['x'],
      y: ['y'],
      z: ['z'],
      roi: ['roi'],
      confidence: ['confidence'],
    },
  },
];

const ROI_CONNECTION_LAYOUTS: readonly LayoutRule[] = [
  {
    name: 'flywire_connections',
    signature: [['pre_pt_root_id', 'post_pt_root_id', 'syn_count']],
    aliases: { pre: ['pre_pt_root_id'], post: ['post_pt_root_id'], roi: ['neuropil'], weight: ['syn_count'], transmitter: ['nt_type'], ...PROBABILITIES('_avg') },
  },
  {
    name: 'codex_connections',
    signature: [['pre_root_id', 'post_root_id', 'syn_count']],
    aliases: { pre: ['pre_root_id'], post: ['post_root_id'], roi: ['neuropil'], weight: ['syn_count'], transmitter: ['nt_type'], ...PROBABILITIES('_avg') },
  },
  {
    name: 'codex_connections_export',
    signature: [['from', 'to', 'synapses']],
    aliases: { pre: ['from'], post: ['to'], roi: ['neuropil'], weight: ['synapses'], transmitter: ['neuro transmitter', 'nt_type'] },
  },
];

const ANNOTATION_ALIASES: Aliases = {
  neuron_id: ['root_id', 'bodyid', 'body_id', 'pt_root_id'],
  instance: ['instance'],
  type: ['cell_type', 'type', 'primary_type'],
  class: ['class', 'cell_class'],
  super_class: ['super_class', 'superclass'],
  sub_class: ['sub_class', 'cell_sub_class', 'subclass'],
  hemilineage: ['hemilineage', 'ito_lee_hemilineage'],
  side: ['side', 'somaside', 'soma_side'],
  status: ['status'],
  transmitter: ['nt_type', 'top_nt', 'predictednt', 'predicted_nt'],
  transmitter_confidence: ['nt_type_score', 'top_nt_conf', 'predictedntprob', 'predicted_nt_prob'],
  soma_x: ['soma_x'],
  soma_y: ['soma_y'],
  soma_z: ['soma_z'],
  soma: ['somalocation', 'soma_location', 'soma_position'],
  roi_info: ['roiinfo', 'roi_info'],
};
const ANNOTATION_LAYOUTS: readonly LayoutRule[] = [
  { name: 'flywire_annotations', signature: [['root_id', 'top_nt'], ['root_id', 'supervoxel_id']], aliases: ANNOTATION_ALIASES },
  { name: 'flywire_classification', signature: [['root_id', 'super_class'], ['root_id', 'flow']], aliases: ANNOTATION_ALIASES },
  { name: 'flywire_neurons', signature: [['root_id', 'nt_type']], aliases: ANNOTATION_ALIASES },
  { name: 'consolidated_cell_types', signature: [['root_id', 'primary_type']], aliases: ANNOTATION_ALIASES },
  { name: 'neuprint_neurons', signature: [['bodyid']], aliases: ANNOTATION_ALIASES },
  { name: 'annotations', signature: [['root_id']], aliases: ANNOTATION_ALIASES },
];

const ROI_LAYOUTS: readonly LayoutRule[] = [
  {
    name: 'flywire_neuropils',
    signature: [['neuropil', 'category']],
    aliases: { roi: ['neuropil'], description: ['description'], category: ['category'], term: ['term'] },
  },
  {
    name: 'roi_table',
    signature: [['roi', 'parent'], ['roi', 'primary'], ['roi', 'is_primary']],
    aliases: { roi: ['roi', 'name'], parent: ['parent'], primary: ['primary', 'is_primary', 'isprimary'], description: ['description'], term: ['term'] },
  },
];

const RULES: Record<TableKind, readonly LayoutRule[]> = {
  synapses: SYNAPSE_LAYOUTS,
  roi_connections: ROI_CONNECTION_LAYOUTS,
  annotations: ANNOTATION_LAYOUTS,
  rois: ROI_LAYOUTS,
};

/** What each kind needs, as alternatives of fields (one alternative complete). */
const REQUIRED: Record<TableKind, readonly (readonly string[])[]> = {
  synapses: [['pre', 'x', 'y', 'z'], ['post', 'x', 'y', 'z'], ['pre', 'position'], ['post', 'position'], ['body', 'type', 'x', 'y', 'z']],
  roi_connections: [['pre', 'post', 'weight']],
  annotations: [['neuron_id']],
  rois: [['roi']],
};

const REQUIRED_TEXT: Record<TableKind, string> = {
  synapses: 'pre or post (or bodyId and type) and a position (x, y, z or one list column)',
  roi_connections: 'pre, post and weight',
  annotations: 'a neuron id (root_id or bodyId)',
  rois: 'roi',
};

const lower = (names: readonly string[]) => names.map((n) => n.trim().toLowerCase());

/** The layout whose signature the columns carry, for `kind`; null when none does. */
function matchRule(kind: TableKind, names: readonly string[]): LayoutRule | null {
  const have = new Set(lower(names));
  return RULES[kind].find((r) => r.signature.some((set) => set.every((c) => have.has(c)))) ?? null;
}

/** The file name's leading number (`1734350788.csv`): the bodyId of a neuPrint per-neuron synapse file. */
export function bodyIdFromFilename(filename: string): string | undefined {
  const base = filename.replace(/^.*[\\/]/, '');
  // `722817260.csv` as navis and neuprint-python save them, or `synapses_722817260.csv` as an upload names them.
  return /^(?:synapses[_-])?(\d+)(?:\.|_|$)/i.exec(base)?.[1];
}

/**
 * Which kind of synapse-level table a file holds, from its name and column names; null when it is not one of
 * them (the C. elegans `neurons.csv` with `neuron_id` and `connections.csv` with `pre,post,...` are the existing
 * neuron and connection tables, not these). A name starting with `synapses`, `connections`, `neurons`,
 * `classification` or `rois` settles ties; the columns decide.
 */
export function tableKindOf(filename: string, columns: readonly string[]): TableKind | null {
  const have = new Set(lower(columns));
  if (have.has('neuron_id') && !have.has('root_id')) return null;
  if (have.has('pre') && have.has('post') && !have.has('type')) return null;
  const base = filename.replace(/^.*[\\/]/, '').toLowerCase();
  const byName: TableKind | null = base.startsWith('synapses')
    ? 'synapses'
    : base.startsWith('connections')
      ? 'roi_connections'
      : base.startsWith('neurons') || base.startsWith('classification')
        ? 'annotations'
        : base.startsWith('rois')
          ? 'rois'
          : null;
  const byColumns = TABLE_KINDS.filter((k) => matchRule(k, columns));
  if (byName && byColumns.includes(byName)) return byName;
  if (byColumns.length) return byColumns[0];
  // A neuPrint per-neuron synapse file named by its bodyId needs no bodyId column.
  if (bodyIdFromFilename(filename) && ['type', 'x', 'y', 'z'].every((c) => have.has(c))) return 'synapses';
  return null;
}

/**
 * The layout of a `kind` table with these columns: the recognised one, with `mapping` (our field -> the file's
 * column, case-insensitive) overriding or completing it. Throws BadInput naming the file when the mapping names a
 * column the file lacks or a field we do not have, or when a required column is missing.
 */
export function recognizeLayout(kind: TableKind, filename: string, names: readonly string[], mapping?: ColumnMapping | null): Layout {
  const lowered = lower(names);
  const index = new Map<string, number>();
  lowered.forEach((n, i) => {
    if (!index.has(n)) index.set(n, i);
  });
  const rule = matchRule(kind, names);
  const columns: Partial<Record<string, number>> = {};
  if (rule) {
    for (const [field, aliases] of Object.entries(rule.aliases)) {
      const at = aliases!.map((a) => index.get(a)).find((i) => i !== undefined);
      if (at !== undefined) columns[field] = at;
    }
  }
  const fields: readonly string[] = FIELDS[kind];
  for (const [field, column] of Object.entries(mapping ?? {})) {
    if (column === undefined) continue;
    if (!fields.includes(field)) throw new BadInput(`${filename}: the column mapping names field ${JSON.stringify(field)}, which a ${kind} table does not have (fields: ${fields.join(', ')})`);
    const at = index.get(String(column).trim().toLowerCase());
    if (at === undefined) throw new BadInput(`${filename}: the column mapping maps ${field} to column ${JSON.stringify(column)}, which the file does not have (columns: ${names.join(', ')})`);
    columns[field] = at;
  }
  const mapped = Object.keys(mapping ?? {}).length > 0;
  const bodyId = kind === 'synapses' && columns.body === undefined ? bodyIdFromFilename(filename) : undefined;
  const has = (f: string) => columns[f] !== undefined || (f === 'body' && bodyId !== undefined);
  if (!REQUIRED[kind].some((set) => set.every(has))) {
    throw new BadInput(`${filename}: missing required columns: a ${kind} table needs ${REQUIRED_TEXT[kind]}${rule ? ` (read as ${rule.name})` : ''}; got ${names.join(', ')}${mapped ? '' : '; give a column mapping for another layout'}`);
  }
  const used = new Set(Object.values(columns));
  return {
    kind,
    name: rule && !mapped ? rule.name : mapped ? 'mapping' : kind,
    columns,
    names: [...names],
    integerIds: !mapped || rule !== null,
    bodyId,
    ignored: names.map((_, i) => i).filter((i) => !used.has(i)),
  };
}
