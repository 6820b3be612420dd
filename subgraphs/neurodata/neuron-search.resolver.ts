import { Arg, Args, Ctx, Float, Int, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { actorOf } from './dataset.mappers.js';
import { DatasetRowsExport } from './data-read.types.js';
import { ADJACENCY_PAGE_DEFAULT, ADJACENCY_PAGE_MAX, NEURON_PAGE_DEFAULT, NEURON_PAGE_MAX, type AdjacencyInput } from './neuron-search.rules.js';
import type { NeuronSearchService } from './neuron-search.service.js';
import { AdjacencyArgs, DatasetAdjacencyPage, DatasetCommonPartnersPage, DatasetConnectivityByField, DatasetNeuronFields, DatasetNeuronSearchPage, NeuronCriteriaInput } from './neuron-search.types.js';
import { toNeuronDetail } from './synapse-read.resolver.js';

const VERSION = { nullable: true, description: 'latest (default), v1, 2, ... or draft (owners and maintainers)' } as const;
const ROIS = { nullable: true, description: 'only these ROIs (each counts its primary descendants; none: outside every ROI); every ROI when absent' } as const;

/** The adjacency as given, absent arguments left out. */
const adjacencyInput = (a: AdjacencyArgs): AdjacencyInput => Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined && v !== null)) as AdjacencyInput;

/** Neurons by criteria, the fields they are searched by and the connections between two sets of them (docs/neurodata.md, "Neurons by criteria"). Academic, as every data read. */
@Resolver()
export class NeuronSearchResolver {
  constructor(private readonly service: NeuronSearchService) {}

  @Query(() => DatasetNeuronSearchPage, { description: 'The neurons of a version that match criteria, in neuron_id order, a page at a time (keyset: after=next) with their total.' })
  @Access(AccessClass.Academic)
  async datasetNeuronSearch(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('criteria', () => NeuronCriteriaInput, { nullable: true, description: 'every neuron when absent' }) criteria?: NeuronCriteriaInput,
    @Arg('limit', () => Int, { nullable: true, description: `1..${NEURON_PAGE_MAX}, default ${NEURON_PAGE_DEFAULT}` }) limit?: number,
    @Arg('after', () => String, { nullable: true, description: 'the next of the previous page' }) after?: string,
  ): Promise<DatasetNeuronSearchPage> {
    const r = await this.service.search(actorOf(ctx), datasetId, version, criteria, limit, after);
    return {
      dataset_id: r.resolved.dataset.id,
      version: r.resolved.version,
      draft: r.resolved.isDraft,
      items: r.items.map((item) => toNeuronDetail({ resolved: r.resolved, ...item })),
      total: r.total,
      limit: r.limit,
      next: r.next,
      truncated: r.next !== null,
    };
  }

  @Query(() => DatasetRowsExport, { description: 'Every neuron that matches criteria (part=neurons) or their per-ROI counts (part=roi_counts), as an Apache Arrow IPC stream, for the .arrow route to stream.' })
  @Access(AccessClass.Academic)
  async datasetNeuronSearchExport(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('criteria', () => NeuronCriteriaInput, { nullable: true }) criteria?: NeuronCriteriaInput,
    @Arg('part', () => String, { nullable: true, description: 'neurons (the default) or roi_counts' }) part?: string,
  ): Promise<DatasetRowsExport> {
    const r = await this.service.export(actorOf(ctx), datasetId, version, criteria, part);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, object_key: r.objectKey, rows: r.rows, size: r.bytes, sha256: r.sha256, filename: r.filename };
  }

  @Query(() => DatasetAdjacencyPage, {
    description: "The connections from one neuron set to another (neuprint-python's fetch_adjacencies), per ROI with the bucket outside every primary ROI so that a pair's rows add up to its weight, or per pair; ordered by pre, post and roi, a page at a time with their total.",
  })
  @Access(AccessClass.Academic)
  async datasetAdjacency(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Args(() => AdjacencyArgs) args: AdjacencyArgs,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('limit', () => Int, { nullable: true, description: `1..${ADJACENCY_PAGE_MAX}, default ${ADJACENCY_PAGE_DEFAULT}` }) limit?: number,
    @Arg('after', () => String, { nullable: true, description: 'the next of the previous page' }) after?: string,
  ): Promise<DatasetAdjacencyPage> {
    const input = adjacencyInput(args);
    const r = await this.service.adjacency(actorOf(ctx), datasetId, version, input, limit, after);
    return {
      dataset_id: r.resolved.dataset.id,
      version: r.resolved.version,
      draft: r.resolved.isDraft,
      items: r.items,
      total: r.total,
      total_weight: r.totalWeight,
      limit: r.limit,
      next: r.next,
      truncated: r.next !== null,
    };
  }

  @Query(() => DatasetRowsExport, { description: 'Every row of datasetAdjacency, as an Apache Arrow IPC stream, for the .arrow route to stream.' })
  @Access(AccessClass.Academic)
  async datasetAdjacencyExport(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Args(() => AdjacencyArgs) args: AdjacencyArgs,
    @Arg('version', () => String, VERSION) version?: string,
  ): Promise<DatasetRowsExport> {
    const input = adjacencyInput(args);
    const r = await this.service.exportAdjacency(actorOf(ctx), datasetId, version, input);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, object_key: r.objectKey, rows: r.rows, size: r.bytes, sha256: r.sha256, filename: r.filename };
  }

  @Query(() => DatasetCommonPartnersPage, {
    description: "The partners every neuron of a set connects with (neuprint-python's fetch_common_connectivity), upstream or downstream, by neuron_id, a page at a time with their total.",
  })
  @Access(AccessClass.Academic)
  async datasetCommonPartners(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('criteria', () => NeuronCriteriaInput, { nullable: true, description: 'the set; every neuron when absent' }) criteria?: NeuronCriteriaInput,
    @Arg('direction', () => String, { nullable: true, description: "upstream (the default: the set's common inputs) or downstream (its common outputs)" }) direction?: string,
    @Arg('rois', () => [String], ROIS) rois?: string[],
    @Arg('min_weight', () => Float, { nullable: true, description: 'the least weight of each partner to each member, over the ROIs read (default 1)' }) minWeight?: number,
    @Arg('limit', () => Int, { nullable: true, description: `1..${NEURON_PAGE_MAX}, default ${NEURON_PAGE_DEFAULT}` }) limit?: number,
    @Arg('after', () => String, { nullable: true, description: 'the next of the previous page' }) after?: string,
  ): Promise<DatasetCommonPartnersPage> {
    const r = await this.service.commonPartners(actorOf(ctx), datasetId, version, { criteria, direction, rois, min_weight: minWeight }, limit, after);
    return {
      dataset_id: r.resolved.dataset.id,
      version: r.resolved.version,
      draft: r.resolved.isDraft,
      members: r.members,
      items: r.items.map((p) => ({ neuron_id: p.partner, weight: p.weight })),
      total: r.total,
      limit: r.limit,
      next: r.next,
      truncated: r.next !== null,
    };
  }

  @Query(() => DatasetConnectivityByField, {
    description: 'Connectivity aggregated by a field of the neurons on each side (type × type by default) over the pairs an adjacency keeps: one row per pair of values with its weight and number of connected pairs, by the two values, a page at a time.',
  })
  @Access(AccessClass.Academic)
  async datasetConnectivityByField(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Args(() => AdjacencyArgs) args: AdjacencyArgs,
    @Arg('version', () => String, VERSION) version?: string,
    @Arg('row_field', () => String, { nullable: true, description: 'the field of the presynaptic neurons (GET .../neurons/fields); default type' }) rowField?: string,
    @Arg('column_field', () => String, { nullable: true, description: 'the field of the postsynaptic neurons; default row_field' }) columnField?: string,
    @Arg('limit', () => Int, { nullable: true, description: `1..${NEURON_PAGE_MAX}, default ${NEURON_PAGE_DEFAULT}` }) limit?: number,
    @Arg('after', () => String, { nullable: true, description: 'the next of the previous page' }) after?: string,
  ): Promise<DatasetConnectivityByField> {
    const r = await this.service.byField(actorOf(ctx), datasetId, version, { ...adjacencyInput(args), row_field: rowField, column_field: columnField }, limit, after);
    return {
      dataset_id: r.resolved.dataset.id,
      version: r.resolved.version,
      draft: r.resolved.isDraft,
      row_field: r.rowField,
      column_field: r.columnField,
      items: r.items.map((c) => ({ pre_value: c.preValue, post_value: c.postValue, weight: c.weight, pairs: c.pairs })),
      total: r.total,
      limit: r.limit,
      next: r.next,
      truncated: r.next !== null,
    };
  }

  @Query(() => DatasetNeuronFields, { description: "The fields a version's neurons can be searched by, each with how many neurons have it and its commonest values." })
  @Access(AccessClass.Academic)
  async datasetNeuronFields(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, VERSION) version?: string,
  ): Promise<DatasetNeuronFields> {
    const r = await this.service.fields(actorOf(ctx), datasetId, version);
    return { dataset_id: r.resolved.dataset.id, version: r.resolved.version, draft: r.resolved.isDraft, annotated: r.annotated, roi_counts: r.roiCounts, items: r.items };
  }
}
