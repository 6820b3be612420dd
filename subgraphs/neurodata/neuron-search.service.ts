import type { Clock } from '../../lib/clock.js';
import { BadInput } from '../../lib/errors.js';
import type { ObjectStore } from '../../lib/objects/objects.js';
import type { PerUserSlots } from '../../lib/per-user-slots.js';
import { currentRequestScope } from '../../lib/request-scope.js';
import type { Actor, DatasetService, ResolvedVersion } from './dataset.service.js';
import { removeStaleExports, rowsExportTarget, type RowsExport } from './data-read.service.js';
import {
  adjacencyPage,
  ANNOTATION_FIELDS,
  checkAdjacency,
  decodeByFieldCursor,
  encodeAdjacencyCursor,
  encodeByFieldCursor,
  type AdjacencyInput,
  type CheckedAdjacency,
  CELL_FIELDS,
  checkCriteria,
  encodeNeuronCursor,
  extraFieldName,
  FIELD_TOP_VALUES,
  isTypedField,
  neuronPage,
  resolveField,
  type CheckedCriteria,
  type FieldCatalogue,
  type NeuronCriteriaInput,
} from './neuron-search.rules.js';
import { bboxInStoredUnit, expandRoi } from './synapse-read.rules.js';
import { refOf, type NeuronDetail } from './synapse-read.service.js';
import type { DataStore } from './store/data.store.js';
import type { AdjacencyQuery } from './store/connectivity.sql.js';
import type { FieldMatch, FieldSource, NeuronQuery } from './store/neuron-criteria.sql.js';
import type { ByFieldRow, RoiConnectionRow, SynapseReadStore, VersionRef } from './store/synapse-read.store.js';

/** Seconds an export of every match may run. */
const EXPORT_MAX_EXECUTION_S = 600;

export interface NeuronSearchPage {
  resolved: ResolvedVersion;
  items: Omit<NeuronDetail, 'resolved'>[];
  total: number;
  limit: number;
  next: string | null;
}

export interface AdjacencyPage {
  resolved: ResolvedVersion;
  items: RoiConnectionRow[];
  /** Rows, and their weight in all, before paging. */
  total: number;
  totalWeight: number;
  limit: number;
  next: string | null;
}

export interface CommonPartnersPage {
  resolved: ResolvedVersion;
  /** Neurons of the set. */
  members: number;
  items: { partner: string; weight: number }[];
  total: number;
  limit: number;
  next: string | null;
}

export interface ByFieldPage {
  resolved: ResolvedVersion;
  rowField: string;
  columnField: string;
  items: ByFieldRow[];
  total: number;
  limit: number;
  next: string | null;
}

export interface NeuronField {
  field: string;
  /** annotation: a typed annotation; extra: another column of the annotation source; cell: the neurons table. */
  source: 'annotation' | 'extra' | 'cell';
  neurons: number;
  distinct: number;
  top: { value: string; count: number }[];
}

/**
 * Neurons by criteria and the connections between two criteria sets (docs/neurodata.md, "Neurons by criteria"):
 * ids, any annotation by value or regular expression, ROIs with input and output minimums, synapse totals, a soma
 * box. Access is the one decision of every data read (DatasetService.resolve); the criteria's fields and ROIs are
 * the version's own.
 */
export class NeuronSearchService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly synapses: SynapseReadStore,
    private readonly data: DataStore,
    private readonly objects: ObjectStore,
    private readonly clock: Clock,
    private readonly serviceVersion: string,
    /** A user's whole-table reads at once (DATA_READS_MAX_CONCURRENT_PER_USER). */
    private readonly heavyReads: PerUserSlots,
  ) {}

  /** The fields a version's neurons can be searched by, each with how many have it and its commonest values. */
  async fields(actor: Actor, ref: string, version: string | null | undefined): Promise<{ resolved: ResolvedVersion; items: NeuronField[]; annotated: boolean; roiCounts: boolean }> {
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const [catalogue, roiCounts] = await Promise.all([this.synapses.neuronFieldCatalogue(at, { withExtra: true }), this.synapses.hasNeuronRois(at)]);
    const fields = fieldsOf(catalogue);
    const { counts, values } = await this.heavyReads.run(actor.id, () => this.synapses.neuronFieldValues(at, catalogue.annotated, fields, FIELD_TOP_VALUES));
    const countOf = new Map(counts.map((c) => [c.field, c]));
    const items = fields.map((f): NeuronField => ({
      field: f.name,
      source: f.kind,
      neurons: countOf.get(f.name)?.neurons ?? 0,
      distinct: countOf.get(f.name)?.distinct ?? 0,
      top: values.filter((v) => v.field === f.name).map((v) => ({ value: v.value, count: v.n })),
    }));
    return { resolved, items, annotated: catalogue.annotated, roiCounts };
  }

  /** One page of the neurons the criteria match, in id order, each in full (as GET .../neurons/{id}), with the total. */
  async search(actor: Actor, ref: string, version: string | null | undefined, input: NeuronCriteriaInput | null | undefined, limit?: number | null, after?: string | null): Promise<NeuronSearchPage> {
    const page = neuronPage(limit, after);
    const checked = checkCriteria(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const q = await this.queryOf(at, checked);
    const [ids, total] = await this.heavyReads.run(actor.id, () => Promise.all([this.synapses.searchNeuronIds(at, q, { limit: page.limit + 1, after: page.after }), this.synapses.countNeurons(at, q)]));
    const pageIds = ids.slice(0, page.limit);
    const [rows, annotations, rois] = await Promise.all([
      pageIds.length ? this.data.readNeurons(at.datasetId, at.version, { filter: { neuronIds: pageIds }, limit: pageIds.length }) : Promise.resolve([]),
      this.synapses.neuronAnnotations(at, pageIds),
      this.synapses.neuronRois(at, pageIds),
    ]);
    const rowOf = new Map(rows.map((r) => [r.neuronId, r]));
    const annotationOf = new Map(annotations.map((a) => [a.neuronId, a]));
    const roisOf = new Map<string, typeof rois>();
    for (const r of rois) roisOf.set(r.neuronId, [...(roisOf.get(r.neuronId) ?? []), r]);
    const items = pageIds.map((id) => ({ neuronId: id, row: rowOf.get(id) ?? null, annotations: annotationOf.get(id) ?? null, rois: roisOf.get(id) ?? [] }));
    const next = ids.length > page.limit ? encodeNeuronCursor(pageIds[pageIds.length - 1]) : null;
    return { resolved, items, total, limit: page.limit, next };
  }

  /** Every neuron the criteria match (or their per-ROI counts), in id order, as an Arrow IPC stream in object storage. */
  async export(actor: Actor, ref: string, version: string | null | undefined, input: NeuronCriteriaInput | null | undefined, part: string | null | undefined): Promise<RowsExport> {
    const what = part ?? 'neurons';
    if (what !== 'neurons' && what !== 'roi_counts') throw new BadInput(`part: neurons or roi_counts (got ${JSON.stringify(what)})`);
    const checked = checkCriteria(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const q = await this.queryOf(at, checked);
    await removeStaleExports(this.objects, this.clock);
    const { objectKey, metadata, label } = rowsExportTarget(resolved, 'neurons', { part: what }, this.clock, this.serviceVersion);
    // The criteria travel in the body: the metadata says which, so the file alone tells what it answers.
    metadata.query = `POST /v1/neurodata/datasets/${resolved.dataset.slug}/neurons/search.arrow?version=${resolved.isDraft ? 'draft' : `v${resolved.version}`}&part=${what}`;
    metadata.criteria = JSON.stringify(input ?? {});
    const stored = await this.heavyReads.run(actor.id, () =>
      this.synapses.exportNeurons(this.objects, objectKey, at, q, what, metadata, { signal: currentRequestScope()?.signal, maxExecutionTime: EXPORT_MAX_EXECUTION_S }),
    );
    return { resolved, objectKey, rows: stored.rows, bytes: stored.bytes, sha256: stored.sha256, filename: `${label}_${what === 'neurons' ? 'neurons' : 'neuron_roi_counts'}.arrows` };
  }

  /**
   * A page of the connections from the neurons `sources` match to those `targets` match (either absent: any
   * neuron), per ROI with the bucket outside every primary ROI, or per pair; with their count and weight in all.
   */
  async adjacency(actor: Actor, ref: string, version: string | null | undefined, input: AdjacencyInput, limit?: number | null, after?: string | null): Promise<AdjacencyPage> {
    const page = adjacencyPage(limit, after);
    const checked = checkAdjacency(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const q = await this.adjacencyQueryOf(at, checked);
    const [rows, counted] = await this.heavyReads.run(actor.id, () =>
      Promise.all([this.synapses.readAdjacency(at, q, { limit: page.limit + 1, after: page.after }), this.synapses.countAdjacency(at, q)]),
    );
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    const next = rows.length > page.limit && last ? encodeAdjacencyCursor({ pre: last.pre, post: last.post, roi: last.roi ?? '' }) : null;
    return { resolved, items: q.groupByRoi ? items : items.map((r) => ({ ...r, roi: null })), total: counted.rows, totalWeight: counted.weight, limit: page.limit, next };
  }

  /** Every row of an adjacency as an Arrow IPC stream in object storage (pre, post, roi, weight; roi '' per pair). */
  async exportAdjacency(actor: Actor, ref: string, version: string | null | undefined, input: AdjacencyInput): Promise<RowsExport> {
    const checked = checkAdjacency(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const q = await this.adjacencyQueryOf(at, checked);
    await removeStaleExports(this.objects, this.clock);
    const { objectKey, metadata, label } = rowsExportTarget(resolved, 'connectivity/adjacency', {}, this.clock, this.serviceVersion);
    metadata.query = `POST /v1/neurodata/datasets/${resolved.dataset.slug}/connectivity/adjacency.arrow?version=${resolved.isDraft ? 'draft' : `v${resolved.version}`}`;
    metadata.criteria = JSON.stringify(input);
    const stored = await this.heavyReads.run(actor.id, () =>
      this.synapses.exportAdjacency(this.objects, objectKey, at, q, metadata, { signal: currentRequestScope()?.signal, maxExecutionTime: EXPORT_MAX_EXECUTION_S }),
    );
    return { resolved, objectKey, rows: stored.rows, bytes: stored.bytes, sha256: stored.sha256, filename: `${label}_adjacency.arrows` };
  }

  /**
   * The partners every neuron `criteria` matches connects with, upstream (its inputs) or downstream, each pair at
   * least `minWeight` over the ROIs kept; a page by partner id with how many there are and the set's size.
   */
  async commonPartners(
    actor: Actor,
    ref: string,
    version: string | null | undefined,
    input: { criteria?: NeuronCriteriaInput | null; direction?: string | null; rois?: readonly string[] | null; min_weight?: number | null },
    limit?: number | null,
    after?: string | null,
  ): Promise<CommonPartnersPage> {
    const page = neuronPage(limit, after);
    const direction = input.direction ?? 'upstream';
    if (direction !== 'upstream' && direction !== 'downstream') throw new BadInput(`direction: upstream or downstream (got ${JSON.stringify(direction)})`);
    const minWeight = input.min_weight ?? 1;
    if (!Number.isFinite(minWeight) || minWeight < 0) throw new BadInput(`min_weight: a number, 0 or more (got ${minWeight})`);
    const checked = checkCriteria(input.criteria);
    const roiNames = input.rois === null || input.rois === undefined ? undefined : checkAdjacency({ rois: input.rois }).rois;
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const [set, rois, perRoi] = await Promise.all([this.queryOf(at, checked), roiNames ? this.synapses.readRois(at) : Promise.resolve([]), this.synapses.hasRoiConnections(at)]);
    const opts = { perRoi, minWeight, ...(roiNames ? { rois: [...new Set(roiNames.flatMap((r) => expandRoi(r, rois)))].sort() } : {}) };
    // Sizing the set and finding its partners are both reads of the version: one of the user's heavy-read slots.
    const { members, rows, total } = await this.heavyReads.run(actor.id, async () => {
      const n = await this.synapses.countNeurons(at, set);
      if (n === 0) return { members: n, rows: [], total: 0 };
      return { members: n, ...(await this.synapses.readCommonPartners(at, set, n, direction, opts, { limit: page.limit + 1, after: page.after })) };
    });
    const items = rows.slice(0, page.limit);
    const next = rows.length > page.limit ? encodeNeuronCursor(items[items.length - 1].partner) : null;
    return { resolved, members, items, total, limit: page.limit, next };
  }

  /**
   * Connectivity aggregated by a field of each side's neurons (type × type, class × class, ...) over the pairs an
   * adjacency keeps: a page by (row value, column value), with how many cells the table has.
   */
  async byField(
    actor: Actor,
    ref: string,
    version: string | null | undefined,
    input: AdjacencyInput & { row_field?: string | null; column_field?: string | null },
    limit?: number | null,
    after?: string | null,
  ): Promise<ByFieldPage> {
    const { row_field: rowName, column_field: columnName, ...adjacency } = input;
    for (const name of ['group_by_roi', 'min_roi_weight'] as const) {
      if (adjacency[name] !== undefined && adjacency[name] !== null) throw new BadInput(`${name}: not for connectivity by field, which sums each pair over the ROIs read (min_total_weight bounds the pairs)`);
    }
    const row = rowName ?? 'type';
    const column = columnName ?? row;
    const page = neuronPage(limit, null);
    const cursor = after === null || after === undefined ? undefined : decodeByFieldCursor(after);
    const checked = checkAdjacency({ ...adjacency, group_by_roi: false });
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const [q, catalogue] = await Promise.all([this.adjacencyQueryOf(at, checked), this.synapses.neuronFieldCatalogue(at, { withExtra: !isTypedField(row) || !isTypedField(column) })]);
    const fields = { row: resolveField(row, 'row_field', catalogue), column: resolveField(column, 'column_field', catalogue) };
    const searched = catalogue.annotated ? 'neuron_annotations' : 'neurons';
    const { rows, total } = await this.heavyReads.run(actor.id, () => this.synapses.readByField(at, q, searched, fields, { limit: page.limit + 1, after: cursor }));
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    const next = rows.length > page.limit && last ? encodeByFieldCursor(last.preValue, last.postValue) : null;
    return { resolved, rowField: row, columnField: column, items, total, limit: page.limit, next };
  }

  private async adjacencyQueryOf(at: VersionRef, c: CheckedAdjacency): Promise<AdjacencyQuery> {
    const perRoi = await this.synapses.hasRoiConnections(at);
    const prefixed = async (side: 'sources' | 'targets', criteria: CheckedCriteria | null) => {
      if (!criteria) return null;
      try {
        return await this.queryOf(at, criteria);
      } catch (e) {
        if (e instanceof BadInput) throw new BadInput(e.message.replace(/^criteria/, side));
        throw e;
      }
    };
    const [sources, targets, rois] = await Promise.all([prefixed('sources', c.sources), prefixed('targets', c.targets), c.rois ? this.synapses.readRois(at) : Promise.resolve([])]);
    const q: AdjacencyQuery = { perRoi, sources, targets, groupByRoi: c.groupByRoi };
    if (c.rois) q.rois = [...new Set(c.rois.flatMap((r) => expandRoi(r, rois)))].sort();
    if (c.minRoiWeight !== undefined) q.minRoiWeight = c.minRoiWeight;
    if (c.minTotalWeight !== undefined) q.minTotalWeight = c.minTotalWeight;
    if (c.transmitters) q.transmitters = c.transmitters;
    return q;
  }

  /** The store's query: fields resolved against the version's, regular expressions compiled, ROIs expanded, the box placed. */
  private async queryOf(at: VersionRef, c: CheckedCriteria): Promise<NeuronQuery> {
    const needsRois = c.roiTerms.length > 0;
    const [catalogue, rois, roiCounts] = await Promise.all([
      this.synapses.neuronFieldCatalogue(at, { withExtra: c.where.some((w) => !isTypedField(w.field)) }),
      needsRois ? this.synapses.readRois(at) : Promise.resolve([]),
      needsRois || c.minPre !== undefined || c.minPost !== undefined ? this.synapses.hasNeuronRois(at) : Promise.resolve(true),
    ]);
    if (!roiCounts) {
      const which = needsRois ? 'rois, input_rois and output_rois' : 'min_pre and min_post';
      throw new BadInput(`criteria: ${which} need per-ROI synapse counts, which this dataset version has none of (it holds no synapses or per-ROI connections)`);
    }
    const fields: FieldMatch[] = [];
    for (const [i, w] of c.where.entries()) {
      const source = resolveField(w.field, `criteria.where[${i}].field`, catalogue);
      if ('regex' in w) {
        const problem = await this.synapses.regexProblem(`^(?:${w.regex})$`);
        if (problem) throw new BadInput(`criteria.where[${i}].regex: not a regular expression the engine reads (RE2 syntax): ${problem}`);
        fields.push({ ...source, regex: w.regex });
      } else {
        fields.push({ ...source, values: w.values });
      }
    }
    const roiTerms = c.roiTerms.map((t) => ({ rois: expandRoi(t.roi, rois), side: t.side, min: t.min }));
    const q: NeuronQuery = { annotated: catalogue.annotated, fields, roiTerms, roiRequirement: c.roiRequirement };
    if (c.ids) q.ids = c.ids;
    if (c.minPre !== undefined) q.minPre = c.minPre;
    if (c.minPost !== undefined) q.minPost = c.minPost;
    if (c.somaBox) q.somaBox = bboxInStoredUnit(c.somaBox.box, c.somaBox.unit, await this.datasets.versionCoordinates(at.datasetId, at.version));
    return q;
  }
}

/** The fields of a catalogue in the order they are listed: typed ones first, then the extra columns by name. */
function fieldsOf(catalogue: FieldCatalogue): { name: string; kind: NeuronField['source']; source: FieldSource }[] {
  if (!catalogue.annotated) return Object.entries(CELL_FIELDS).map(([name, column]) => ({ name, kind: 'cell', source: { column } }));
  return [
    ...ANNOTATION_FIELDS.map((name) => ({ name, kind: 'annotation' as const, source: { column: name } })),
    ...catalogue.extra.map((key) => ({ name: extraFieldName(key), kind: 'extra' as const, source: { extraKey: key } })),
  ];
}

