import { Arg, Ctx, Float, Int, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { BadInput } from '../../lib/errors.js';
import { actorOf } from './dataset.mappers.js';
import type { DataReadService } from './data-read.service.js';
import { MAX_FILTER_VALUES, ROWS_PAGE_DEFAULT, ROWS_PAGE_MAX, rowsPage } from './data-read.rules.js';
import { DatasetConnectionPage, DatasetNeuronPage, DatasetRowsExport } from './data-read.types.js';
import type { ConnectionRow, NeuronRow } from './data-read.service.js';
import type { SynapseReadService } from './synapse-read.service.js';

const VERSION = { nullable: true, description: 'latest (default), v1, 2, ... or draft (owners and maintainers)' } as const;
const LIMIT = { nullable: true, description: `1..${ROWS_PAGE_MAX}, default ${ROWS_PAGE_DEFAULT}` } as const;
const OFFSET = { nullable: true, description: 'default 0' } as const;
const list = (what: string) => ({ nullable: true, description: `${what}; a value may list several separated by commas; at most ${MAX_FILTER_VALUES} in all` }) as const;

const FORMAT = {
  nullable: true,
  description: 'json (the default: a page) | arrow (REST only: every matching row, unpaged, as an Apache Arrow IPC stream, the answer of the .arrow route)',
} as const;
const ROI = { nullable: true, description: 'only synapses in this ROI count: the weight is the sum over its primary ROIs (none: outside every ROI); needs per-ROI connections' } as const;
const GROUP_BY = { nullable: true, description: 'roi: one row per pre, post and primary ROI, each carrying its roi' } as const;

/** A page is JSON; Arrow is answered by the REST layer (format=arrow there is the .arrow route). */
export function checkFormat(format: string | undefined, table: string): void {
  if (format === undefined || format === null || format === 'json') return;
  if (format === 'arrow') throw new BadInput(`format: arrow is answered over REST: GET /v1/neurodata/datasets/{dataset_id}/${table}.arrow (or ?format=arrow there)`);
  throw new BadInput(`format: ${JSON.stringify(format)} is not json or arrow`);
}

const toNeuron = (r: NeuronRow) => ({
  neuron_id: r.neuronId,
  name: r.name,
  cell_class: r.cellClass,
  cell_type: r.cellType,
  neurotransmitter: r.neurotransmitter,
  is_neuron: r.isNeuron,
  region: r.regionCode,
  x: r.x,
  y: r.y,
  z: r.z,
});
const toConnection = (r: ConnectionRow) => ({ pre: r.pre, post: r.post, synapse_type: r.synapseType, weight: r.weight, roi: null });

/**
 * The neurons and connections of a dataset version (docs/neurodata.md, "Reading the data"). Reads: a token of the
 * read scope suffices, as for the files they come from.
 */
@Resolver()
export class DataReadResolver {
  constructor(
    private readonly service: DataReadService,
    private readonly synapses: SynapseReadService,
  ) {}

  @Query(() => DatasetNeuronPage, { description: 'The neurons (and other cells) of a version, ordered by neuron_id, a page at a time with their total.' })
  @Access(AccessClass.Academic)
  async datasetNeurons(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('neuron_ids', () => [String], list('only these cells')) neuronIds?: string[],
    @Arg('names', () => [String], list('only cells of these names')) names?: string[],
    @Arg('cell_class', () => [String], list('only cells of these classes')) cellClass?: string[],
    @Arg('cell_type', () => [String], list('only cells of these types')) cellType?: string[],
    @Arg('is_neuron', () => Boolean, { nullable: true, description: 'true: neurons only; false: the other cells only' }) isNeuron?: boolean,
    @Arg('limit', () => Int, LIMIT) limit?: number,
    @Arg('offset', () => Int, OFFSET) offset?: number,
    @Arg('format', () => String, FORMAT) format?: string,
  ): Promise<DatasetNeuronPage> {
    checkFormat(format, 'neurons');
    const page = rowsPage(limit, offset);
    const r = await this.service.neurons(actorOf(ctx), datasetId, version, { neuron_ids: neuronIds, names, cell_class: cellClass, cell_type: cellType, is_neuron: isNeuron }, page);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, draft: r.resolved.isDraft, items: r.items.map(toNeuron), total: r.total, limit: r.limit, offset: r.offset };
  }

  @Query(() => DatasetConnectionPage, {
    description: 'The connections of a version as stored (chemical directed; electrical once per pair, pre <= post), ordered by pre, post and synapse_type, a page at a time with their total.',
  })
  @Access(AccessClass.Academic)
  async datasetConnections(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('neuron_ids', () => [String], list('only connections whose pre or post is one of these cells')) neuronIds?: string[],
    @Arg('pre', () => [String], list('only connections from these cells')) pre?: string[],
    @Arg('post', () => [String], list('only connections to these cells')) post?: string[],
    @Arg('synapse_type', () => String, { nullable: true, description: 'chemical | electrical (default both)' }) synapseType?: string,
    @Arg('min_weight', () => Float, { nullable: true, description: 'only connections of at least this weight (>= 0)' }) minWeight?: number,
    @Arg('roi', () => String, ROI) roi?: string,
    @Arg('group_by', () => String, GROUP_BY) groupBy?: string,
    @Arg('limit', () => Int, LIMIT) limit?: number,
    @Arg('offset', () => Int, OFFSET) offset?: number,
    @Arg('format', () => String, FORMAT) format?: string,
  ): Promise<DatasetConnectionPage> {
    checkFormat(format, 'connections');
    const page = rowsPage(limit, offset);
    const input = { neuron_ids: neuronIds, pre, post, synapse_type: synapseType, min_weight: minWeight };
    if ((roi ?? null) !== null || (groupBy ?? null) !== null) {
      const r = await this.synapses.roiConnections(actorOf(ctx), datasetId, version, { ...input, roi, group_by: groupBy }, page);
      const items = r.items.map((c) => ({ pre: c.pre, post: c.post, synapse_type: 'chemical', weight: c.weight, roi: c.roi }));
      return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, draft: r.resolved.isDraft, items, total: r.total, limit: r.limit, offset: r.offset };
    }
    const r = await this.service.connections(actorOf(ctx), datasetId, version, input, page);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, draft: r.resolved.isDraft, items: r.items.map(toConnection), total: r.total, limit: r.limit, offset: r.offset };
  }

  @Query(() => DatasetRowsExport, {
    description: 'Every matching neuron or connection of a version written as an Apache Arrow IPC stream, for the .arrow routes to stream (the filters of datasetNeurons and datasetConnections).',
  })
  @Access(AccessClass.Academic)
  async datasetRowsExport(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('table', () => String, { description: 'neurons | connections' }) table: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('neuron_ids', () => [String], { nullable: true }) neuronIds?: string[],
    @Arg('names', () => [String], { nullable: true, description: 'neurons only' }) names?: string[],
    @Arg('cell_class', () => [String], { nullable: true, description: 'neurons only' }) cellClass?: string[],
    @Arg('cell_type', () => [String], { nullable: true, description: 'neurons only' }) cellType?: string[],
    @Arg('is_neuron', () => Boolean, { nullable: true, description: 'neurons only' }) isNeuron?: boolean,
    @Arg('pre', () => [String], { nullable: true, description: 'connections only' }) pre?: string[],
    @Arg('post', () => [String], { nullable: true, description: 'connections only' }) post?: string[],
    @Arg('synapse_type', () => String, { nullable: true, description: 'connections only' }) synapseType?: string,
    @Arg('min_weight', () => Float, { nullable: true, description: 'connections only' }) minWeight?: number,
    @Arg('roi', () => String, { nullable: true, description: 'connections only' }) roi?: string,
    @Arg('group_by', () => String, { nullable: true, description: 'connections only' }) groupBy?: string,
  ): Promise<DatasetRowsExport> {
    if (table !== 'neurons' && table !== 'connections') throw new BadInput('table: neurons or connections');
    const connections = { neuron_ids: neuronIds, pre, post, synapse_type: synapseType, min_weight: minWeight };
    const perRoi = table === 'connections' && ((roi ?? null) !== null || (groupBy ?? null) !== null);
    const r = perRoi
      ? await this.synapses.exportRoiConnections(actorOf(ctx), datasetId, version, { ...connections, roi, group_by: groupBy })
      : await this.service.exportArrow(
          actorOf(ctx),
          datasetId,
          version,
          table,
          table === 'neurons' ? { neuron_ids: neuronIds, names, cell_class: cellClass, cell_type: cellType, is_neuron: isNeuron } : connections,
        );
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, object_key: r.objectKey, rows: r.rows, size: r.bytes, sha256: r.sha256, filename: r.filename };
  }
}
