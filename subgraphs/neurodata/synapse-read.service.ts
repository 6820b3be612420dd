import type { Clock } from '../../lib/clock.js';
import type { PerUserSlots } from '../../lib/per-user-slots.js';
import { BadInput, NotFound } from '../../lib/errors.js';
import type { ObjectStore } from '../../lib/objects/objects.js';
import { currentRequestScope } from '../../lib/request-scope.js';
import type { Actor, DatasetService, ResolvedVersion } from './dataset.service.js';
import { removeStaleExports, rowsExportTarget, type RowsExport } from './data-read.service.js';
import { connectionFilter, filterParameters, type ConnectionFilterInput, type RowsPage } from './data-read.rules.js';
import {
  bboxInStoredUnit,
  encodeCursor,
  expandRoi,
  parseBbox,
  roiTreeCounts,
  synapseFilterBase,
  synapsePage,
  type RoiWithCounts,
  type SynapseFilterInput,
} from './synapse-read.rules.js';
import type { DataStore, NeuronRow } from './store/data.store.js';
import type {
  NeuronAnnotationRow,
  NeuronRoiRow,
  RoiConnectionFilter,
  RoiConnectionRow,
  RoiCount,
  SynapseFilter,
  SynapseReadStore,
  SynapseRow,
  VersionRef,
} from './store/synapse-read.store.js';

export type { NeuronAnnotationRow, NeuronRoiRow, RoiConnectionRow, RoiWithCounts, SynapseRow };

/** Seconds the statement of a whole read may run (a FlyWire-sized synapse table takes minutes to stream). */
const SCAN_MAX_EXECUTION_S = 1800;
const GROUP_BY = ['roi'] as const;

export interface SynapsePageResult {
  resolved: ResolvedVersion;
  items: SynapseRow[];
  total: number;
  limit: number;
  /** The cursor of the next page; null on the last one. */
  next: string | null;
}

export interface NeuronDetail {
  resolved: ResolvedVersion;
  neuronId: string;
  row: NeuronRow | null;
  annotations: NeuronAnnotationRow | null;
  rois: NeuronRoiRow[];
}

export interface RoiConnectionInput extends ConnectionFilterInput {
  roi?: string | null;
  group_by?: string | null;
}

/**
 * The reads of synapse-level data (docs/neurodata.md, "Reading synapse-level data"): synapse points, the ROI
 * hierarchy with its counts, one neuron's annotations and ROI counts, per-ROI connections. Access is the one
 * decision of every data read (DatasetService.resolve).
 */
export class SynapseReadService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly synapses: SynapseReadStore,
    private readonly data: DataStore,
    private readonly objects: ObjectStore,
    private readonly clock: Clock,
    private readonly serviceVersion: string,
    /** A user's synapse-table scans and whole-table reads at once (DATA_READS_MAX_CONCURRENT_PER_USER). */
    private readonly heavyReads: PerUserSlots,
  ) {}

  /** The ROI hierarchy with per-ROI synapse counts (non-primary ROIs summed over their primary descendants). */
  async rois(actor: Actor, ref: string, version: string | null | undefined): Promise<{ resolved: ResolvedVersion; items: RoiWithCounts[]; outside: RoiCount }> {
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const [rois, counts] = await Promise.all([this.synapses.readRois(at), this.synapses.roiCounts(at)]);
    return { resolved, ...roiTreeCounts(rois, counts) };
  }

  /** One page of the synapses that pass the filters, ordered by (pre, post, synapse_id), with how many pass. */
  async synapsePage(actor: Actor, ref: string, version: string | null | undefined, input: SynapseFilterInput, limit?: number | null, after?: string | null): Promise<SynapsePageResult> {
    const page = synapsePage(limit, after);
    synapseFilterBase(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const filter = await this.filterOf(at, input);
    // A page reads little, but counting its total scans every synapse the filters let through.
    const [rows, total] = await this.heavyReads.run(actor.id, () =>
      Promise.all([this.synapses.readSynapses(at, filter, { limit: page.limit + 1, after: page.after }), this.synapses.countSynapses(at, filter)]),
    );
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    const next = rows.length > page.limit && last ? encodeCursor({ pre: last.pre ?? '', post: last.post ?? '', synapseId: last.synapseId }) : null;
    return { resolved, items, total, limit: page.limit, next };
  }

  /** Every synapse that passes the filters, in the pages' order, as an Arrow IPC stream in object storage. */
  async exportSynapses(actor: Actor, ref: string, version: string | null | undefined, input: SynapseFilterInput): Promise<RowsExport> {
    synapseFilterBase(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const filter = await this.filterOf(at, input);
    await removeStaleExports(this.objects, this.clock);
    const { objectKey, metadata, label } = rowsExportTarget(resolved, 'synapses', filterParameters(input as Record<string, unknown>), this.clock, this.serviceVersion);
    const stored = await this.heavyReads.run(actor.id, () =>
      this.synapses.exportSynapses(this.objects, objectKey, at, filter, metadata, { signal: currentRequestScope()?.signal, maxExecutionTime: SCAN_MAX_EXECUTION_S }),
    );
    return { resolved, objectKey, rows: stored.rows, bytes: stored.bytes, sha256: stored.sha256, filename: `${label}_synapses.arrows` };
  }

  /** A neuron's row, annotations and per-ROI counts; NotFound when the version knows nothing of it. */
  async neuron(actor: Actor, ref: string, version: string | null | undefined, neuronId: string): Promise<NeuronDetail> {
    const id = String(neuronId ?? '').trim();
    if (!id || id.length > 200) throw new BadInput('neuron_id: 1..200 characters');
    const resolved = await this.datasets.resolve(actor, ref, version);
    const at = refOf(resolved);
    const [rows, annotations, rois] = await Promise.all([
      this.data.readNeurons(at.datasetId, at.version, { filter: { neuronIds: [id] }, limit: 1 }),
      this.synapses.neuronAnnotations(at, [id]),
      this.synapses.neuronRois(at, [id]),
    ]);
    if (!rows.length && !annotations.length && !rois.length) {
      throw new NotFound(`dataset ${JSON.stringify(ref)} has no neuron ${JSON.stringify(id)} in v${resolved.version}${resolved.isDraft ? ' (draft)' : ''}`);
    }
    return { resolved, neuronId: id, row: rows[0] ?? null, annotations: annotations[0] ?? null, rois };
  }

  /**
   * Whether a connections read is one of per-ROI connections (`roi` or `group_by` given), checked; null when not.
   * A version without per-ROI connections answers BadInput.
   */
  async roiConnectionFilter(resolved: ResolvedVersion, input: RoiConnectionInput): Promise<{ filter: RoiConnectionFilter; groupByRoi: boolean; none: boolean } | null> {
    const hasRoi = input.roi !== null && input.roi !== undefined;
    const hasGroup = input.group_by !== null && input.group_by !== undefined;
    if (!hasRoi && !hasGroup) return null;
    const base = checkRoiConnectionInput(input);
    const at = refOf(resolved);
    if (!(await this.synapses.hasRoiConnections(at))) {
      throw new BadInput(`${hasRoi ? 'roi' : 'group_by'}: this dataset version has no per-ROI connections (it was published without synapses or per-neuropil connections)`);
    }
    const filter: RoiConnectionFilter = {};
    if (base.neuronIds) filter.neurons = base.neuronIds;
    if (base.pre) filter.pre = base.pre;
    if (base.post) filter.post = base.post;
    if (base.minWeight !== undefined) filter.minWeight = base.minWeight;
    if (hasRoi) filter.rois = expandRoi(input.roi!, await this.synapses.readRois(at));
    // Per-ROI connections are chemical synapses: asking for electrical ones finds none.
    return { filter, groupByRoi: hasGroup, none: base.synapseType === 'electrical' };
  }

  /** A page of per-ROI connections (see roiConnectionFilter), with how many there are. */
  async roiConnections(actor: Actor, ref: string, version: string | null | undefined, input: RoiConnectionInput, page: RowsPage) {
    checkRoiConnectionInput(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const plan = await this.roiConnectionFilter(resolved, input);
    if (!plan) throw new BadInput('roi or group_by: needed for per-ROI connections');
    if (plan.none) return { resolved, items: [] as RoiConnectionRow[], total: 0, ...page };
    const at = refOf(resolved);
    const [items, total] = await this.heavyReads.run(actor.id, () =>
      Promise.all([this.synapses.readRoiConnections(at, plan.filter, plan.groupByRoi, page), this.synapses.countRoiConnections(at, plan.filter, plan.groupByRoi)]),
    );
    return { resolved, items, total, ...page };
  }

  /** Every per-ROI connection of the filters as an Arrow IPC stream (the connections routes' format=arrow with roi or group_by). */
  async exportRoiConnections(actor: Actor, ref: string, version: string | null | undefined, input: RoiConnectionInput): Promise<RowsExport> {
    checkRoiConnectionInput(input);
    const resolved = await this.datasets.resolve(actor, ref, version);
    const plan = await this.roiConnectionFilter(resolved, input);
    if (!plan) throw new BadInput('roi or group_by: needed for per-ROI connections');
    const at = refOf(resolved);
    const filter = plan.none ? { ...plan.filter, rois: [] } : plan.filter;
    await removeStaleExports(this.objects, this.clock);
    const { objectKey, metadata, label } = rowsExportTarget(resolved, 'connections', filterParameters(input), this.clock, this.serviceVersion);
    const stored = await this.heavyReads.run(actor.id, () =>
      this.synapses.exportRoiConnections(this.objects, objectKey, at, filter, plan.groupByRoi, metadata, {
        signal: currentRequestScope()?.signal,
        maxExecutionTime: SCAN_MAX_EXECUTION_S,
      }),
    );
    return { resolved, objectKey, rows: stored.rows, bytes: stored.bytes, sha256: stored.sha256, filename: `${label}_connections.arrows` };
  }

  /** The store's filter: the lists and scores checked, the ROI expanded and the box placed in the version's unit. */
  private async filterOf(at: VersionRef, input: SynapseFilterInput): Promise<SynapseFilter> {
    const filter = synapseFilterBase(input);
    if (input.roi !== null && input.roi !== undefined) filter.rois = expandRoi(input.roi, await this.synapses.readRois(at));
    if (input.bbox !== null && input.bbox !== undefined) {
      filter.bbox = bboxInStoredUnit(parseBbox(input.bbox), String(input.unit), await this.datasets.versionCoordinates(at.datasetId, at.version));
    }
    return filter;
  }
}

/** What can be checked of a per-ROI connections read before the version is known (so that bad input is a 400 first). */
function checkRoiConnectionInput(input: RoiConnectionInput) {
  if (input.group_by !== null && input.group_by !== undefined && !(GROUP_BY as readonly string[]).includes(input.group_by)) {
    throw new BadInput(`group_by: ${JSON.stringify(input.group_by)}; the only grouping is roi`);
  }
  if (input.roi !== null && input.roi !== undefined && (!input.roi.trim() || input.roi.length > 200)) throw new BadInput('roi: an ROI name of 1..200 characters, or none');
  return connectionFilter(input);
}

/** The column store's address of a resolved version. */
export const refOf = (r: ResolvedVersion): VersionRef => ({ datasetId: r.dataset.id, version: r.version });
