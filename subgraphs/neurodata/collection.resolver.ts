import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { CollectionService, CollectionView } from './collection.service.js';
import { page, type DatasetService } from './dataset.service.js';
import { Collection, CollectionPage, CreateCollectionInput, DeletedCollection } from './collection.types.js';
import { actorOf, toDataset } from './dataset.mappers.js';
import { rootLookup } from '../../lib/root-lookup.js';

/** Collections of datasets. */
@Resolver()
export class CollectionResolver {
  constructor(
    private readonly service: CollectionService,
    private readonly datasets: DatasetService,
  ) {}

  @Query(() => CollectionPage, { description: 'Your collections and every public one.' })
  @Access(AccessClass.Academic)
  async collections(
    @Ctx() ctx: RequestContext,
    @Arg('limit', () => Int, { nullable: true, description: '1..200, default 50' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: 'default 0' }) offset?: number,
  ): Promise<CollectionPage> {
    const p = page(limit, offset);
    const r = await this.service.list(actorOf(ctx), p);
    return { items: await Promise.all(r.items.map((c) => this.toCollection(ctx, c))), total: r.total, ...p };
  }

  @Query(() => Collection, rootLookup('One collection with its datasets.'))
  @Access(AccessClass.Academic)
  async collection(@Ctx() ctx: RequestContext, @Arg('collection_id', () => String) id: string): Promise<Collection> {
    return this.toCollection(ctx, await this.service.get(actorOf(ctx), id));
  }

  @Mutation(() => Collection, { description: 'Creates a collection (private unless visibility is public).' })
  @Access(AccessClass.Academic)
  async createCollection(@Ctx() ctx: RequestContext, @Arg('input', () => CreateCollectionInput) input: CreateCollectionInput): Promise<Collection> {
    return this.toCollection(ctx, await this.service.create(actorOf(ctx), input));
  }

  @Mutation(() => DeletedCollection, { description: 'Deletes a collection (its datasets stay).' })
  @Access(AccessClass.Academic)
  async deleteCollection(@Ctx() ctx: RequestContext, @Arg('collection_id', () => String) id: string): Promise<DeletedCollection> {
    const c = await this.service.delete(actorOf(ctx), id);
    return { id: c.id, deleted: true };
  }

  @Mutation(() => Collection, { description: 'Adds a dataset to a collection (idempotent).' })
  @Access(AccessClass.Academic)
  async addDatasetToCollection(
    @Ctx() ctx: RequestContext,
    @Arg('collection_id', () => String) id: string,
    @Arg('dataset_id', () => String) datasetId: string,
  ): Promise<Collection> {
    return this.toCollection(ctx, await this.service.addDataset(actorOf(ctx), id, datasetId));
  }

  @Mutation(() => Collection, { description: 'Removes a dataset from a collection.' })
  @Access(AccessClass.Academic)
  async removeDatasetFromCollection(
    @Ctx() ctx: RequestContext,
    @Arg('collection_id', () => String) id: string,
    @Arg('dataset_id', () => String) datasetId: string,
  ): Promise<Collection> {
    return this.toCollection(ctx, await this.service.removeDataset(actorOf(ctx), id, datasetId));
  }

  private async toCollection(ctx: RequestContext, v: CollectionView): Promise<Collection> {
    const shown = await this.datasets.present(actorOf(ctx), v.datasets);
    return {
      id: v.collection.id,
      owner_id: v.collection.ownerId,
      title: v.collection.title,
      description: v.collection.description,
      visibility: v.collection.visibility,
      dataset_ids: shown.map((d) => d.dataset.id),
      datasets: shown.map(toDataset),
      created_at: v.collection.createdAt,
      updated_at: v.collection.updatedAt,
    };
  }
}
