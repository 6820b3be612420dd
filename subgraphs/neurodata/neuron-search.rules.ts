import { BadInput } from '../../lib/errors.js';
import { decodeKeyset, encodeKeyset, MAX_FILTER_VALUE_CHARS } from './data-read.rules.js';
import { parseBbox, OUTSIDE_ROIS } from './synapse-read.rules.js';

/** Neurons of one JSON page; every match at once is the Arrow answer. */
export const NEURON_PAGE_MAX = 1000;
export const NEURON_PAGE_DEFAULT = 100;
/**
 * Ids a criteria set may list: they travel in the body, so a long list is no URL's problem. Every operation's list
 * values are bounded first by GRAPHQL_MAX_LIST_VALUES (20,000 by default) and GRAPHQL_MAX_LIST_BYTES.
 */
export const MAX_CRITERIA_IDS = 100_000;
/** Conditions on fields, ROIs of each list and values of one condition. */
export const MAX_CONDITIONS = 50;
export const MAX_CRITERIA_ROIS = 200;
export const MAX_CONDITION_VALUES = 10_000;
export const MAX_REGEX_CHARS = 500;
/** Most frequent values each field of GET .../neurons/fields lists. */
export const FIELD_TOP_VALUES = 20;

/** The typed annotation fields (neuron_annotations), named as the API names them. */
export const ANNOTATION_FIELDS = ['instance', 'type', 'class', 'super_class', 'sub_class', 'hemilineage', 'side', 'status', 'transmitter'] as const;
/** The fields of a version without annotations: its neurons table, by API name, and the column each reads. */
export const CELL_FIELDS = { name: 'name', cell_class: 'cell_class', cell_type: 'cell_type', neurotransmitter: 'neurotransmitter', region: 'region_code' } as const;

export type RoiRequirement = 'all' | 'any';
const ROI_REQUIREMENTS: readonly RoiRequirement[] = ['all', 'any'];

export interface FieldConditionInput {
  field: string;
  values?: readonly string[] | null;
  regex?: string | null;
}

/** What a researcher asks for (neuprint-python's NeuronCriteria); every condition given must hold. */
export interface NeuronCriteriaInput {
  ids?: readonly string[] | null;
  where?: readonly FieldConditionInput[] | null;
  rois?: readonly string[] | null;
  input_rois?: readonly string[] | null;
  output_rois?: readonly string[] | null;
  roi_req?: string | null;
  min_roi_inputs?: number | null;
  min_roi_outputs?: number | null;
  min_pre?: number | null;
  min_post?: number | null;
  soma_bbox?: string | null;
  unit?: string | null;
}

/** A field condition checked: exact values (any of them) or a regular expression over the whole value. */
export type FieldCondition = { field: string; values: string[] } | { field: string; regex: string };

/** The criteria as checked before the version is known: the fields and ROIs are named, not yet resolved. */
export interface CheckedCriteria {
  ids?: string[];
  where: FieldCondition[];
  /** Each list's ROI names with the count a neuron needs in it: at least one synapse, inputs, outputs. */
  roiTerms: { roi: string; side: 'any' | 'post' | 'pre'; min: number }[];
  roiRequirement: RoiRequirement;
  minPre?: number;
  minPost?: number;
  somaBox?: { box: { min: [number, number, number]; max: [number, number, number] }; unit: string };
}

function stringList(field: string, values: readonly unknown[] | null | undefined, max: number): string[] | undefined {
  if (values === null || values === undefined) return undefined;
  if (!Array.isArray(values)) throw new BadInput(`${field}: a list of strings`);
  if (values.length > max) throw new BadInput(`${field}: at most ${max} values (got ${values.length})`);
  return values.map((v, i) => {
    if (typeof v !== 'string' || !v.trim() || v.length > MAX_FILTER_VALUE_CHARS) throw new BadInput(`${field}[${i}]: a value of 1..${MAX_FILTER_VALUE_CHARS} characters`);
    return v.trim();
  });
}

function count(field: string, v: number | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < 0) throw new BadInput(`${field}: a whole number, 0 or more (got ${v})`);
  return v;
}

/** Everything that can be checked of the criteria before the version is read, so that bad input is a 400 first. */
export function checkCriteria(input: NeuronCriteriaInput | null | undefined): CheckedCriteria {
  const c = input ?? {};
  const ids = stringList('criteria.ids', c.ids, MAX_CRITERIA_IDS);
  const where = (c.where ?? []).map((w, i): FieldCondition => {
    const at = `criteria.where[${i}]`;
    if (typeof w?.field !== 'string' || !w.field.trim() || w.field.length > MAX_FILTER_VALUE_CHARS) throw new BadInput(`${at}.field: a field name (GET .../neurons/fields lists them)`);
    const hasValues = w.values !== null && w.values !== undefined;
    const hasRegex = w.regex !== null && w.regex !== undefined;
    if (hasValues === hasRegex) throw new BadInput(`${at}: give values or regex, not ${hasValues ? 'both' : 'neither'}`);
    if (hasRegex) {
      if (typeof w.regex !== 'string' || !w.regex || w.regex.length > MAX_REGEX_CHARS) throw new BadInput(`${at}.regex: a regular expression of 1..${MAX_REGEX_CHARS} characters`);
      return { field: w.field.trim(), regex: w.regex };
    }
    if (!Array.isArray(w.values) || w.values.length > MAX_CONDITION_VALUES) throw new BadInput(`${at}.values: a list of at most ${MAX_CONDITION_VALUES} values`);
    // An empty string is a value: it asks for the neurons without one.
    const values = w.values.map((v, j) => {
      if (typeof v !== 'string' || v.length > MAX_FILTER_VALUE_CHARS) throw new BadInput(`${at}.values[${j}]: a value of at most ${MAX_FILTER_VALUE_CHARS} characters`);
      return v;
    });
    return { field: w.field.trim(), values };
  });
  if (where.length > MAX_CONDITIONS) throw new BadInput(`criteria.where: at most ${MAX_CONDITIONS} conditions (got ${where.length})`);
  const roiReq = c.roi_req ?? 'all';
  if (!(ROI_REQUIREMENTS as readonly string[]).includes(roiReq)) throw new BadInput(`criteria.roi_req: all or any (got ${JSON.stringify(roiReq)})`);
  const minInputs = count('criteria.min_roi_inputs', c.min_roi_inputs) ?? 1;
  const minOutputs = count('criteria.min_roi_outputs', c.min_roi_outputs) ?? 1;
  const roiTerms: CheckedCriteria['roiTerms'] = [];
  const lists: [keyof NeuronCriteriaInput, 'any' | 'post' | 'pre', number][] = [
    ['rois', 'any', 1],
    ['input_rois', 'post', minInputs],
    ['output_rois', 'pre', minOutputs],
  ];
  for (const [name, side, min] of lists) {
    for (const roi of stringList(`criteria.${name}`, c[name] as readonly string[] | null | undefined, MAX_CRITERIA_ROIS) ?? []) {
      if (roi === OUTSIDE_ROIS) throw new BadInput(`criteria.${name}: ${OUTSIDE_ROIS} (outside every ROI) is not an ROI a neuron can be required in`);
      roiTerms.push({ roi, side, min });
    }
  }
  const out: CheckedCriteria = { where, roiTerms, roiRequirement: roiReq as RoiRequirement };
  if (ids) out.ids = ids;
  const minPre = count('criteria.min_pre', c.min_pre);
  if (minPre !== undefined) out.minPre = minPre;
  const minPost = count('criteria.min_post', c.min_post);
  if (minPost !== undefined) out.minPost = minPost;
  const hasBox = c.soma_bbox !== null && c.soma_bbox !== undefined;
  const hasUnit = c.unit !== null && c.unit !== undefined;
  if (hasBox && !hasUnit) throw new BadInput('criteria.unit: required with soma_bbox (voxel, nm or um: the unit the box is given in)');
  if (hasUnit && !hasBox) throw new BadInput('criteria.unit: only with soma_bbox');
  if (hasBox) out.somaBox = { box: parseBbox(String(c.soma_bbox)), unit: String(c.unit) };
  return out;
}

/** A page of neurons: limit 1..1000 (default 100), after the previous page's `next`. */
export function neuronPage(limit: number | null | undefined, after: string | null | undefined): { limit: number; after?: string } {
  const l = limit ?? NEURON_PAGE_DEFAULT;
  if (!Number.isInteger(l) || l < 1 || l > NEURON_PAGE_MAX) throw new BadInput(`limit: 1..${NEURON_PAGE_MAX} (got ${l}); every match at once comes as Apache Arrow (format=arrow or the .arrow route)`);
  return after === null || after === undefined ? { limit: l } : { limit: l, after: decodeNeuronCursor(after) };
}

/** The opaque `next` of a page: the id of its last neuron (pages are ordered by neuron_id as text). */
export const encodeNeuronCursor = (neuronId: string): string => encodeKeyset([neuronId]);

const decodeNeuronCursor = (text: string): string => decodeKeyset(text, 1)[0];

/** The fields a version's neurons can be searched by: its annotations' (typed and extra) or its neurons table's. */
export interface FieldCatalogue {
  annotated: boolean;
  /** Extra annotation keys, by name (annotated versions only). */
  extra: string[];
}

/** Whether a field name is a typed annotation field, read without the catalogue of extra columns. */
export const isTypedField = (name: string): boolean => (ANNOTATION_FIELDS as readonly string[]).includes(name);

/** Where a field named in a request (at `label`) is read: a typed column, or a key of `extra`. Unknown fields are a 400. */
export function resolveField(name: string, label: string, catalogue: FieldCatalogue): { column: string } | { extraKey: string } {
  if (catalogue.annotated) {
    if ((ANNOTATION_FIELDS as readonly string[]).includes(name)) return { column: name };
    // An extra column whose name a typed field already has is addressed as extra.<name>.
    const key = name.startsWith('extra.') ? name.slice('extra.'.length) : name;
    if (catalogue.extra.includes(key)) return { extraKey: key };
  } else if (name in CELL_FIELDS) {
    return { column: CELL_FIELDS[name as keyof typeof CELL_FIELDS] };
  }
  const known = catalogue.annotated ? [...ANNOTATION_FIELDS, ...catalogue.extra.map((k) => extraFieldName(k))] : Object.keys(CELL_FIELDS);
  throw new BadInput(`${label}: ${JSON.stringify(name)} is not a field of this version's neurons; its fields are ${known.slice(0, 40).join(', ')}${known.length > 40 ? ', ...' : ''} (GET .../neurons/fields lists them with their values)`);
}

/** The API name of an extra annotation column. */
export function extraFieldName(key: string): string {
  return (ANNOTATION_FIELDS as readonly string[]).includes(key) ? `extra.${key}` : key;
}

/** Rows of one JSON page of an adjacency; every row at once is the Arrow answer. */
export const ADJACENCY_PAGE_MAX = 1000;
export const ADJACENCY_PAGE_DEFAULT = 100;

/** The connections between two criteria sets (neuprint-python's fetch_adjacencies), as given. */
export interface AdjacencyInput {
  sources?: NeuronCriteriaInput | null;
  targets?: NeuronCriteriaInput | null;
  rois?: readonly string[] | null;
  min_roi_weight?: number | null;
  min_total_weight?: number | null;
  transmitter?: readonly string[] | null;
  group_by_roi?: boolean | null;
}

export interface CheckedAdjacency {
  /** null: any neuron on that side. */
  sources: CheckedCriteria | null;
  targets: CheckedCriteria | null;
  rois?: string[];
  minRoiWeight?: number;
  minTotalWeight?: number;
  transmitters?: string[];
  groupByRoi: boolean;
}

function weight(field: string, v: number | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (!Number.isFinite(v) || v < 0) throw new BadInput(`${field}: a number, 0 or more (got ${v})`);
  return v;
}

/** Everything that can be checked of an adjacency read before the version is read. */
export function checkAdjacency(input: AdjacencyInput): CheckedAdjacency {
  const prefixed = (side: 'sources' | 'targets', c: NeuronCriteriaInput | null | undefined) => {
    if (c === null || c === undefined) return null;
    try {
      return checkCriteria(c);
    } catch (e) {
      if (e instanceof BadInput) throw new BadInput(e.message.replace(/^criteria/, side));
      throw e;
    }
  };
  const out: CheckedAdjacency = { sources: prefixed('sources', input.sources), targets: prefixed('targets', input.targets), groupByRoi: input.group_by_roi ?? true };
  const rois = stringList('rois', input.rois, MAX_CRITERIA_ROIS);
  if (rois) out.rois = rois;
  const roiWeight = weight('min_roi_weight', input.min_roi_weight);
  if (roiWeight !== undefined) out.minRoiWeight = roiWeight;
  const total = weight('min_total_weight', input.min_total_weight);
  if (total !== undefined) out.minTotalWeight = total;
  const transmitters = stringList('transmitter', input.transmitter, MAX_CONDITIONS);
  if (transmitters) out.transmitters = transmitters;
  if (!out.groupByRoi && roiWeight !== undefined) throw new BadInput('min_roi_weight: only with group_by_roi (a weight per ROI); min_total_weight bounds the pairs');
  return out;
}

/** A page of an adjacency: limit 1..1000 (default 100), after the previous page's `next`. */
export function adjacencyPage(limit: number | null | undefined, after: string | null | undefined): { limit: number; after?: AdjacencyCursor } {
  const l = limit ?? ADJACENCY_PAGE_DEFAULT;
  if (!Number.isInteger(l) || l < 1 || l > ADJACENCY_PAGE_MAX) throw new BadInput(`limit: 1..${ADJACENCY_PAGE_MAX} (got ${l}); every row at once comes as Apache Arrow (format=arrow or the .arrow route)`);
  return after === null || after === undefined ? { limit: l } : { limit: l, after: decodeAdjacencyCursor(after) };
}

/** Where a page of an adjacency ends: its last row's (pre, post, roi); roi '' when the rows are per pair. */
export interface AdjacencyCursor {
  pre: string;
  post: string;
  roi: string;
}

export const encodeAdjacencyCursor = (c: AdjacencyCursor): string => encodeKeyset([c.pre, c.post, c.roi]);

function decodeAdjacencyCursor(text: string): AdjacencyCursor {
  const [pre, post, roi] = decodeKeyset(text, 3);
  return { pre, post, roi };
}

/** The cursor of a page of connectivity by field: its last row's two values. */
export const encodeByFieldCursor = (preValue: string, postValue: string): string => encodeKeyset([preValue, postValue]);

export function decodeByFieldCursor(text: string): { preValue: string; postValue: string } {
  const [preValue, postValue] = decodeKeyset(text, 2);
  return { preValue, postValue };
}
