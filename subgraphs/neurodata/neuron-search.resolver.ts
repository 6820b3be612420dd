import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { actorOf } from './dataset.mappers.js';
import { DatasetRowsExport } from './data-read.types.js';
import { NEURON_PAGE_DEFAULT, NEURON_PAGE_MAX } from './neuron-search.rules.js';
import type { NeuronSearchService } from './neuron-search.service.js';
import { DatasetNeuronFields, DatasetNeuronSearchPage, NeuronCriteriaInput } from './neuron-search.types.js';
import { toNeuronDetail } from './synapse-read.resolver.js';

const VERSION = { nullable: true, description: 'latest (default), v1, 2, ... or draft (owners and maintainers)' } as const;

/** Neurons by criteria and the fields they are searched by (docs/neurodata.md, "Neurons by criteria"). Academic, as every data read. */
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
