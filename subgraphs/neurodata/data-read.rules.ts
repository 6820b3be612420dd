import { BadInput } from '../../lib/errors.js';
import type { ConnectionFilter, NeuronFilter, SynapseType } from './store/data.store.js';

/** Ids, names, classes or types one list filter of the neurons and connections routes may hold. */
export const MAX_FILTER_VALUES = 1000;
/** Characters of one value of such a list (the longest real neuron id or name is tens of characters). */
export const MAX_FILTER_VALUE_CHARS = 200;
/** Rows of one JSON page of neurons or connections; every row at once is the Arrow answer. */
export const ROWS_PAGE_MAX = 1000;
export const ROWS_PAGE_DEFAULT = 100;
/** The furthest offset of a JSON page; a read past it is a whole read, as Arrow. */
export const ROWS_OFFSET_MAX = 10_000_000;

/** The synapse types of the connections table (docs/neurodata-tables.md). */
export const SYNAPSE_TYPES: readonly SynapseType[] = ['chemical', 'electrical'];

export interface RowsPage {
  limit: number;
  offset: number;
}

/** A page of rows: limit 1..1000 (default 100), offset 0..10,000,000. */
export function rowsPage(limit?: number | null, offset?: number | null): RowsPage {
  const l = limit ?? ROWS_PAGE_DEFAULT;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > ROWS_PAGE_MAX) throw new BadInput(`limit: 1..${ROWS_PAGE_MAX} (got ${l}); every row at once comes as Apache Arrow (the .arrow route)`);
  if (!Number.isInteger(o) || o < 0 || o > ROWS_OFFSET_MAX) throw new BadInput(`offset: 0..${ROWS_OFFSET_MAX} (got ${o})`);
  return { limit: l, offset: o };
}

/**
 * A list filter as given (absent stays absent), each value checked, duplicates dropped. A value may hold several,
 * separated by commas (`neuron_ids=AVAL,AVAR`): a query string repeats a parameter only so often (REST), and ids and
 * names hold no commas.
 */
export function valueList(field: string, given: readonly string[] | null | undefined): string[] | undefined {
  if (given === null || given === undefined) return undefined;
  const values = given.flatMap((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [v]));
  if (values.length > MAX_FILTER_VALUES) throw new BadInput(`${field}: at most ${MAX_FILTER_VALUES} values (got ${values.length})`);
  for (const v of values) {
    if (typeof v !== 'string' || v.length === 0 || v.length > MAX_FILTER_VALUE_CHARS) throw new BadInput(`${field}: each value is 1..${MAX_FILTER_VALUE_CHARS} characters`);
  }
  return [...new Set(values)];
}

export interface NeuronFilterInput {
  neuron_ids?: readonly string[] | null;
  names?: readonly string[] | null;
  cell_class?: readonly string[] | null;
  cell_type?: readonly string[] | null;
  is_neuron?: boolean | null;
}

export interface ConnectionFilterInput {
  neuron_ids?: readonly string[] | null;
  pre?: readonly string[] | null;
  post?: readonly string[] | null;
  synapse_type?: string | null;
  min_weight?: number | null;
}

export function neuronFilter(input: NeuronFilterInput): NeuronFilter {
  const f: NeuronFilter = {};
  const ids = valueList('neuron_ids', input.neuron_ids);
  if (ids) f.neuronIds = ids;
  const names = valueList('names', input.names);
  if (names) f.names = names;
  const classes = valueList('cell_class', input.cell_class);
  if (classes) f.cellClasses = classes;
  const types = valueList('cell_type', input.cell_type);
  if (types) f.cellTypes = types;
  if (input.is_neuron !== null && input.is_neuron !== undefined) f.isNeuron = input.is_neuron;
  return f;
}

export function connectionFilter(input: ConnectionFilterInput): ConnectionFilter {
  const f: ConnectionFilter = {};
  const ids = valueList('neuron_ids', input.neuron_ids);
  if (ids) f.neuronIds = ids;
  const pre = valueList('pre', input.pre);
  if (pre) f.pre = pre;
  const post = valueList('post', input.post);
  if (post) f.post = post;
  if (input.synapse_type !== null && input.synapse_type !== undefined) {
    if (!SYNAPSE_TYPES.includes(input.synapse_type as SynapseType)) {
      throw new BadInput(`synapse_type: ${JSON.stringify(input.synapse_type)} is not one of ${SYNAPSE_TYPES.join(', ')} (leave it out for both)`);
    }
    f.synapseType = input.synapse_type as SynapseType;
  }
  if (input.min_weight !== null && input.min_weight !== undefined) {
    if (!Number.isFinite(input.min_weight) || input.min_weight < 0) throw new BadInput(`min_weight: a number of at least 0 (got ${input.min_weight})`);
    f.minWeight = input.min_weight;
  }
  return f;
}

/** The filters as given, for the answers' provenance (the Arrow metadata's `parameters`). */
export function filterParameters(input: NeuronFilterInput | ConnectionFilterInput): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * The opaque `next` of a keyset-paged read: its last row's key, as text values. Pages walked through it give every
 * row once, in order.
 */
export function encodeKeyset(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The key of a cursor `encodeKeyset` wrote with `arity` values; anything else is a BadInput naming `after`. */
export function decodeKeyset(text: string, arity: number): string[] {
  const bad = () => new BadInput('after: not a cursor of this route (pass the `next` of the previous page as it came)');
  if (typeof text !== 'string' || text.length > 4 * (arity * MAX_FILTER_VALUE_CHARS + 16) || !/^[A-Za-z0-9_-]+$/.test(text)) throw bad();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(v) || v.length !== arity || !v.every((x) => typeof x === 'string')) throw bad();
  return v as string[];
}
