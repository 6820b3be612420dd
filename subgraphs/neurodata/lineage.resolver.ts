import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { LineageEntry, LineageService } from './lineage.service.js';
import { DatasetLineage, DeclareLineageInput, LineageLink } from './lineage.types.js';
import { actorOf } from './dataset.mappers.js';

const toLink = (e: LineageEntry): LineageLink => ({
  id: e.link.id,
  dataset_id: e.otherId,
  slug: e.other?.slug ?? null,
  title: e.other?.title ?? e.link.sourceTitle,
  version: e.otherVersion,
  relation: e.link.relation,
  description: e.link.description,
  deleted: e.other === null,
  created_by: e.link.createdBy,
  created_at: e.link.createdAt,
});

/** Lineage between dataset versions. */
@Resolver()
export class LineageResolver {
  constructor(private readonly service: LineageService) {}

  @Query(() => DatasetLineage, { description: 'Upstream (what it was derived from) and downstream datasets, with versions; deleted ones are flagged.' })
  @Access(AccessClass.Academic)
  async datasetLineage(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<DatasetLineage> {
    const r = await this.service.lineage(actorOf(ctx), datasetId);
    return { dataset_id: r.dataset.id, upstream: r.upstream.map(toLink), downstream: r.downstream.map(toLink) };
  }

  @Mutation(() => DatasetLineage, { description: 'Declares that this dataset was derived from a published version of another; a cycle is refused.' })
  @Access(AccessClass.Academic)
  async declareDatasetLineage(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('input', () => DeclareLineageInput) input: DeclareLineageInput,
  ): Promise<DatasetLineage> {
    const actor = actorOf(ctx);
    await this.service.declare(actor, datasetId, input);
    const r = await this.service.lineage(actor, datasetId);
    return { dataset_id: r.dataset.id, upstream: r.upstream.map(toLink), downstream: r.downstream.map(toLink) };
  }
}
