import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { page, type DatasetService } from './dataset.service.js';
import type { LineageService } from './lineage.service.js';
import {
  CreateDatasetInput,
  Dataset,
  DatasetPage,
  DatasetProvenance,
  DatasetVersion,
  DatasetVersionList,
  DeletedDataset,
  IncompleteDatasetPage,
  UpdateDatasetInput,
} from './dataset.types.js';
import { actorOf, toDataset, toVersion } from './dataset.mappers.js';
import type { Visibility } from './dataset.model.js';
import { rootLookup } from '../../lib/root-lookup.js';

const LIMIT = { nullable: true, description: '1..200, default 50' } as const;
const OFFSET = { nullable: true, description: 'default 0' } as const;

/** Datasets: records, lifecycle and versions (spec 4.3, Academic). */
@Resolver()
export class DatasetResolver {
  constructor(
    private readonly service: DatasetService,
    private readonly lineage: LineageService,
  ) {}

  @Query(() => DatasetPage, { description: 'Published datasets (public and restricted: restricted ones show their metadata only), plus your own drafts.' })
  @Access(AccessClass.Academic)
  async datasets(
    @Ctx() ctx: RequestContext,
    @Arg('visibility', () => String, { nullable: true, description: 'public | restricted' }) visibility?: string,
    @Arg('limit', () => Int, LIMIT) limit?: number,
    @Arg('offset', () => Int, OFFSET) offset?: number,
  ): Promise<DatasetPage> {
    return this.page(ctx, 'visible', limit, offset, visibility as Visibility | undefined);
  }

  @Query(() => DatasetPage, { description: 'Datasets you created.' })
  @Access(AccessClass.Academic)
  async ownedDatasets(@Ctx() ctx: RequestContext, @Arg('limit', () => Int, LIMIT) limit?: number, @Arg('offset', () => Int, OFFSET) offset?: number): Promise<DatasetPage> {
    return this.page(ctx, 'owned', limit, offset);
  }

  @Query(() => DatasetPage, { description: 'Datasets you may change: yours, those you maintain (every dataset for a SuperUser).' })
  @Access(AccessClass.Academic)
  async modifiableDatasets(@Ctx() ctx: RequestContext, @Arg('limit', () => Int, LIMIT) limit?: number, @Arg('offset', () => Int, OFFSET) offset?: number): Promise<DatasetPage> {
    return this.page(ctx, 'modifiable', limit, offset);
  }

  @Query(() => IncompleteDatasetPage, { description: 'Your drafts that cannot be published yet, each with what it lacks.' })
  @Access(AccessClass.Academic)
  async incompleteDatasets(@Ctx() ctx: RequestContext, @Arg('limit', () => Int, LIMIT) limit?: number, @Arg('offset', () => Int, OFFSET) offset?: number): Promise<IncompleteDatasetPage> {
    const actor = actorOf(ctx);
    const p = page(limit, offset);
    const res = await this.service.incomplete(actor, p);
    const shown = await this.service.present(actor, res.items.map((i) => i.dataset));
    return { items: shown.map((v, i) => ({ dataset: toDataset(v), missing: res.items[i].missing })), total: res.total, ...p };
  }

  @Query(() => Dataset, rootLookup('One dataset by id or slug.'))
  @Access(AccessClass.Academic)
  async dataset(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<Dataset> {
    return toDataset(await this.service.view(actorOf(ctx), datasetId));
  }

  @Query(() => DatasetVersionList, { description: 'The published versions, newest first.' })
  @Access(AccessClass.Academic)
  async datasetVersions(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<DatasetVersionList> {
    const actor = actorOf(ctx);
    const { dataset, access, versions } = await this.service.versions(actor, datasetId);
    return {
      dataset_id: dataset.id,
      latest_version: dataset.latestVersion,
      draft_version: access.canModify ? dataset.draftVersion : null,
      items: versions.map((v) => toVersion(dataset.slug, v, access.canReadData)),
    };
  }

  @Query(() => DatasetVersion, rootLookup('One published version: its frozen metadata, files and row counts.'))
  @Access(AccessClass.Academic)
  async datasetVersion(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, { description: 'v1, v2, ... (or 1, 2, ...), or latest' }) version: string,
  ): Promise<DatasetVersion> {
    const { dataset, access, version: v } = await this.service.version(actorOf(ctx), datasetId, version);
    return toVersion(dataset.slug, v, access.canReadData);
  }

  @Query(() => DatasetProvenance, { description: 'Who created, changed, published and derived what, and when: events and a PROV-JSON document.' })
  @Access(AccessClass.Academic)
  async datasetProvenance(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<DatasetProvenance> {
    const { dataset, events, prov } = await this.lineage.provenance(actorOf(ctx), datasetId, ctx.baseUrl ?? '');
    return {
      dataset_id: dataset.id,
      events: events.map((e) => ({ id: e.id, activity: e.activity, agent_id: e.agentId, agent: { id: e.agentId }, version: e.version, details: e.details, at: e.at })),
      prov,
    };
  }

  @Mutation(() => Dataset, { description: 'Creates a dataset as a draft. Species, brain regions, microscopy and neurotransmitters are checked against the ontology.' })
  @Access(AccessClass.Academic)
  async createDataset(@Ctx() ctx: RequestContext, @Arg('input', () => CreateDatasetInput) input: CreateDatasetInput): Promise<Dataset> {
    const actor = actorOf(ctx);
    const d = await this.service.create(actor, { ...input, visibility: input.visibility as Visibility | null });
    return toDataset(await this.service.view(actor, d.id));
  }

  @Mutation(() => Dataset, { description: 'Changes metadata; the change goes into the open draft (opened from the latest version when needed).' })
  @Access(AccessClass.Academic)
  async updateDataset(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('input', () => UpdateDatasetInput) input: UpdateDatasetInput,
  ): Promise<Dataset> {
    const actor = actorOf(ctx);
    const d = await this.service.update(actor, datasetId, { ...input, visibility: input.visibility as Visibility | null });
    return toDataset(await this.service.view(actor, d.id));
  }

  @Mutation(() => DatasetVersion, { description: 'Publishes the open draft as the next immutable version (v1, v2, ...).' })
  @Access(AccessClass.Academic)
  async publishDataset(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('note', () => String, { nullable: true, description: 'what changed in this version' }) note?: string,
  ): Promise<DatasetVersion> {
    const actor = actorOf(ctx);
    const v = await this.service.publish(actor, datasetId, note);
    const { dataset } = await this.service.view(actor, v.datasetId);
    return toVersion(dataset.slug, v, true);
  }

  @Mutation(() => DeletedDataset, { description: 'Deletes the dataset, its versions, data and files (owner or SuperUser).' })
  @Access(AccessClass.Academic)
  async deleteDataset(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<DeletedDataset> {
    const d = await this.service.delete(actorOf(ctx), datasetId);
    return { id: d.id, slug: d.slug, deleted: true };
  }

  private async page(ctx: RequestContext, kind: 'visible' | 'owned' | 'modifiable', limit?: number, offset?: number, visibility?: Visibility): Promise<DatasetPage> {
    const actor = actorOf(ctx);
    const p = page(limit, offset);
    const { items, total } = await this.service.list(actor, kind, p, visibility);
    return { items: (await this.service.present(actor, items)).map(toDataset), total, ...p };
  }
}

