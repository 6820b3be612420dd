import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { AssetService } from './asset.service.js';
import { DatasetAsset, DatasetAssetList, UploadTarget } from './dataset.types.js';
import { DownloadUrls, DownloadUrlsInput, OpenedDownload } from './download.types.js';
import type { DownloadGrantService } from './download-grant.service.js';
import { actorOf, grantHolderOf, toAsset } from './dataset.mappers.js';

/** Files of datasets: upload (through the streaming upload route), removal, listing and download URLs. */
@Resolver()
export class AssetResolver {
  constructor(
    private readonly assets: AssetService,
    private readonly grants: DownloadGrantService,
  ) {}

  @Query(() => DatasetAssetList, { description: 'The files of a version (default the latest; draft for owners and maintainers).' })
  @Access(AccessClass.Academic)
  async datasetAssets(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, { nullable: true, description: 'latest (default), v1, 2, draft' }) version?: string,
  ): Promise<DatasetAssetList> {
    const r = await this.assets.list(actorOf(ctx), datasetId, version);
    return { dataset_id: r.dataset.id, version: r.version, draft: r.draft, items: r.assets.map(toAsset) };
  }

  @Query(() => UploadTarget, { description: 'Where the upload route streams a file for this dataset (owner, maintainers, SuperUsers).' })
  @Access(AccessClass.Academic)
  async datasetUploadTarget(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<UploadTarget> {
    const t = await this.assets.uploadTarget(actorOf(ctx), datasetId);
    return { dataset_id: t.datasetId, upload_key: t.uploadKey, max_bytes: t.maxBytes };
  }

  @Mutation(() => DatasetAsset, { description: 'Attaches a streamed upload to the open draft, validating and ingesting recognised files (used by the upload route).' })
  @Access(AccessClass.Academic)
  async attachDatasetAsset(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('upload_key', () => String) uploadKey: string,
    @Arg('filename', () => String) filename: string,
    @Arg('media_type', () => String, { nullable: true }) mediaType?: string,
    @Arg('mapping', () => String, {
      nullable: true,
      description: 'for a synapse-level table of a layout not recognised from its columns: a JSON object from field names (pre, post, x, y, z, roi, ...) to the columns holding them',
    })
    mapping?: string,
  ): Promise<DatasetAsset> {
    return toAsset(await this.assets.attach(actorOf(ctx), datasetId, { uploadKey, filename, mediaType, mapping }));
  }

  @Mutation(() => DatasetAsset, { description: 'Removes a file from the open draft, with its rows.' })
  @Access(AccessClass.Academic)
  async removeDatasetAsset(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('asset_id', () => String) assetId: string,
  ): Promise<DatasetAsset> {
    return toAsset(await this.assets.remove(actorOf(ctx), datasetId, assetId));
  }

  @Mutation(() => DownloadUrls, { description: 'Expiring URLs that download the files of a version without a token (pre-signed S3, or signed by this service).' })
  @Access(AccessClass.Academic, { token: 'read', remoteCallers: true })
  async createDownloadUrls(@Ctx() ctx: RequestContext, @Arg('input', () => DownloadUrlsInput) input: DownloadUrlsInput): Promise<DownloadUrls> {
    const r = await this.assets.downloadUrls(
      actorOf(ctx),
      { datasetId: input.dataset_id, version: input.version, assetIds: input.asset_ids, expiresIn: input.expires_in },
      ctx.baseUrl ?? '',
      grantHolderOf(ctx),
    );
    return {
      dataset_id: r.dataset.id,
      version: r.version,
      expires_at: r.expiresAt,
      signed_by: r.signedBy,
      urls: r.urls.map((u) => ({ asset_id: u.asset.id, filename: u.asset.filename, media_type: u.asset.mediaType, size: u.asset.size, sha256: u.asset.sha256, url: u.url })),
    };
  }

  @Query(() => OpenedDownload, {
    description: 'The object a signed download URL leads to, after its signature, its expiry and the access of the account it was issued to are checked as of now (the URL is the credential).',
  })
  @Access(AccessClass.Public)
  async openDownload(@Arg('grant', () => String) grant: string): Promise<OpenedDownload> {
    const g = await this.grants.open(grant);
    return { object_key: g.key, filename: g.filename ?? null };
  }
}
