import { Arg, Ctx, Float, Int, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { actorOf } from './dataset.mappers.js';
import { checkFormat } from './data-read.resolver.js';
import { MAX_FILTER_VALUES } from './data-read.rules.js';
import { DatasetRowsExport } from './data-read.types.js';
import type { NeuronDetail, NeuronRoiRow, SynapseReadService, SynapseRow } from './synapse-read.service.js';
import { OUTSIDE_ROIS, SYNAPSE_PAGE_DEFAULT, SYNAPSE_PAGE_MAX, type SynapseFilterInput } from './synapse-read.rules.js';
import { DatasetNeuronDetail, DatasetRois, DatasetSynapsePage } from './synapse-read.types.js';

const VERSION = { nullable: true, description: 'latest (default), v1, 2, ... or draft (owners and maintainers)' } as const;
const list = (what: string) => ({ nullable: true, description: `${what}; a value may list several separated by commas; at most ${MAX_FILTER_VALUES} in all` }) as const;
const FORMAT = {
  nullable: true,
  description: 'json (the default: a page) | arrow (REST only: every matching synapse, unpaged, as an Apache Arrow IPC stream, the answer of .../synapses.arrow)',
} as const;

const toSynapse = (r: SynapseRow) => ({
  synapse_id: r.synapseId,
  pre: r.pre,
  post: r.post,
  x: r.x,
  y: r.y,
  z: r.z,
  roi: r.roi,
  confidence: r.confidence,
  cleft_score: r.cleftScore,
  connection_score: r.connectionScore,
  size: r.size,
  transmitter: r.transmitter,
  ...r.probabilities,
});
const toRoiCounts = (r: NeuronRoiRow) => ({ roi: r.roi, pre: r.pre, post: r.post, upstream: r.upstream, downstream: r.downstream });
const orNull = (s: string | undefined) => (s ? s : null);

/** The synapse filters as given, shared by the page and the Arrow export (absent ones left out, for the provenance). */
function synapseInput(a: {
    neuron?: string[];
    pre?: string[];
    post?: string[];
    roi?: string;
    bbox?: string;
    unit?: string;
    minConfidence?: number;
    minCleftScore?: number;
    minConnectionScore?: number;
    transmitter?: string[];
}): SynapseFilterInput {
    const input: SynapseFilterInput = {
      neuron: a.neuron,
      pre: a.pre,
      post: a.post,
      roi: a.roi,
      bbox: a.bbox,
      unit: a.unit,
      min_confidence: a.minConfidence,
      min_cleft_score: a.minCleftScore,
      min_connection_score: a.minConnectionScore,
      transmitter: a.transmitter,
    };
    return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null)) as SynapseFilterInput;
}

/**
 * The synapse-level reads of a dataset version (docs/neurodata.md, "Reading synapse-level data"): synapses, the
 * ROI hierarchy with counts, one neuron in full. Academic, as every data read.
 */
@Resolver()
export class SynapseReadResolver {
  constructor(private readonly service: SynapseReadService) {}

  @Query(() => DatasetRois, { description: 'The ROI hierarchy of a version with synapse counts per ROI, and the synapses outside every ROI.' })
  @Access(AccessClass.Academic)
  async datasetRois(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string, @Arg('version', () => String, VERSION) version?: string): Promise<DatasetRois> {
    const r = await this.service.rois(actorOf(ctx), datasetId, version);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, draft: r.resolved.isDraft, items: r.items, outside_rois: r.outside };
  }

  @Query(() => DatasetSynapsePage, { description: 'The synapses of a version that pass the filters, ordered by pre, post and synapse_id, a page at a time (keyset: after=next) with their total.' })
  @Access(AccessClass.Academic)
  async datasetSynapses(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('neuron', () => [String], list('only synapses with one of these neurons on either side')) neuron?: string[],
    @Arg('pre', () => [String], list('only synapses from these neurons')) pre?: string[],
    @Arg('post', () => [String], list('only synapses onto these neurons')) post?: string[],
    @Arg('roi', () => String, { nullable: true, description: `only synapses in this ROI or its descendants; ${OUTSIDE_ROIS}: outside every ROI` }) roi?: string,
    @Arg('bbox', () => String, { nullable: true, description: 'x0,y0,z0,x1,y1,z1: only synapses in this box (corners inclusive), in unit' }) bbox?: string,
    @Arg('unit', () => String, { nullable: true, description: 'voxel | nm | um: the unit of bbox (required with it)' }) unit?: string,
    @Arg('min_confidence', () => Float, { nullable: true }) minConfidence?: number,
    @Arg('min_cleft_score', () => Float, { nullable: true }) minCleftScore?: number,
    @Arg('min_connection_score', () => Float, { nullable: true }) minConnectionScore?: number,
    @Arg('transmitter', () => [String], list('only synapses of these predicted transmitters')) transmitter?: string[],
    @Arg('limit', () => Int, { nullable: true, description: `1..${SYNAPSE_PAGE_MAX}, default ${SYNAPSE_PAGE_DEFAULT}` }) limit?: number,
    @Arg('after', () => String, { nullable: true, description: 'the next of the previous page' }) after?: string,
    @Arg('format', () => String, FORMAT) format?: string,
  ): Promise<DatasetSynapsePage> {
    checkFormat(format, 'synapses');
    const input = synapseInput({ neuron, pre, post, roi, bbox, unit, minConfidence, minCleftScore, minConnectionScore, transmitter });
    const r = await this.service.synapsePage(actorOf(ctx), datasetId, version, input, limit, after);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, draft: r.resolved.isDraft, items: r.items.map(toSynapse), total: r.total, limit: r.limit, next: r.next };
  }

  @Query(() => DatasetRowsExport, { description: 'Every synapse that passes the filters of datasetSynapses, as an Apache Arrow IPC stream, for the .arrow route to stream.' })
  @Access(AccessClass.Academic)
  async datasetSynapsesExport(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('neuron', () => [String], { nullable: true }) neuron?: string[],
    @Arg('pre', () => [String], { nullable: true }) pre?: string[],
    @Arg('post', () => [String], { nullable: true }) post?: string[],
    @Arg('roi', () => String, { nullable: true }) roi?: string,
    @Arg('bbox', () => String, { nullable: true }) bbox?: string,
    @Arg('unit', () => String, { nullable: true }) unit?: string,
    @Arg('min_confidence', () => Float, { nullable: true }) minConfidence?: number,
    @Arg('min_cleft_score', () => Float, { nullable: true }) minCleftScore?: number,
    @Arg('min_connection_score', () => Float, { nullable: true }) minConnectionScore?: number,
    @Arg('transmitter', () => [String], { nullable: true }) transmitter?: string[],
  ): Promise<DatasetRowsExport> {
    const input = synapseInput({ neuron, pre, post, roi, bbox, unit, minConfidence, minCleftScore, minConnectionScore, transmitter });
    const r = await this.service.exportSynapses(actorOf(ctx), datasetId, version, input);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, object_key: r.objectKey, rows: r.rows, size: r.bytes, sha256: r.sha256, filename: r.filename };
  }

  @Query(() => DatasetNeuronDetail, { description: 'One neuron of a version: its neurons row, annotations and synapse counts per ROI.' })
  @Access(AccessClass.Academic)
  async datasetNeuron(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('neuron_id', () => String) neuronId: string,
    @Arg('version', () => String, VERSION) version?: string,
  ): Promise<DatasetNeuronDetail> {
    return toNeuronDetail(await this.service.neuron(actorOf(ctx), datasetId, version, neuronId));
  }
}

/** A neuron as GET .../neurons/{neuron_id} answers it (and each item of a neurons search). */
export function toNeuronDetail(r: NeuronDetail): DatasetNeuronDetail {
  const n = r.row;
  const a = r.annotations;
  const outside = r.rois.find((x) => x.roi === '');
  return {
    dataset_id: r.resolved.dataset.id,
    version: r.resolved.version,
    draft: r.resolved.isDraft,
    neuron_id: r.neuronId,
    name: n?.name ?? null,
    cell_class: n?.cellClass ?? null,
    cell_type: n?.cellType ?? null,
    neurotransmitter: n?.neurotransmitter ?? null,
    is_neuron: n ? n.isNeuron : null,
    region: n?.regionCode ?? null,
    x: n?.x ?? null,
    y: n?.y ?? null,
    z: n?.z ?? null,
    instance: orNull(a?.instance),
    type: orNull(a?.type),
    class: orNull(a?.class),
    super_class: orNull(a?.superClass),
    sub_class: orNull(a?.subClass),
    hemilineage: orNull(a?.hemilineage),
    side: orNull(a?.side),
    status: orNull(a?.status),
    transmitter: orNull(a?.transmitter),
    transmitter_confidence: a?.transmitterConfidence ?? null,
    soma: a?.soma ? { x: a.soma[0], y: a.soma[1], z: a.soma[2] } : null,
    extra: a?.extra ?? {},
    rois: r.rois.filter((x) => x.roi !== '').map(toRoiCounts),
    outside_rois: outside ? toRoiCounts(outside) : null,
  };
}
