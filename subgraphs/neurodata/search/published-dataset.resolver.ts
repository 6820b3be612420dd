import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { Access, AccessClass, classOf, satisfies } from '../../../lib/access.js';
import type { RequestContext } from '../../../lib/context.js';
import { actorOf, toMetadataView, toRowCountsView } from '../dataset.mappers.js';
import { toCatalogueEntry } from './search.mappers.js';
import type { PublishedDatasetService, PublishedRecord } from './published-dataset.service.js';
import { PublishedDataset } from './published-dataset.types.js';
import { rootLookup } from '../../../lib/root-lookup.js';

function toPublishedDataset(r: PublishedRecord, baseUrl: string): PublishedDataset {
  const m = toMetadataView(r.row.metadata);
  return {
    ...toCatalogueEntry(r.row),
    creators: m.creators,
    related_publication: m.related_publication,
    doi: m.doi,
    counts: r.counts ? toRowCountsView(r.counts) : null,
    can_read_data: r.canReadData,
    page_url: r.pageUrl,
    url: `${baseUrl}/v1/neurodata/datasets/${r.row.datasetId}`,
    published_at: r.row.publishedAt,
    version_published_at: r.row.versionPublishedAt,
    versions: r.versions.map((v) => ({ version: v.version, published_at: v.publishedAt, note: v.note })),
    citation: r.exports.text,
    citations: r.exports.files.map((f) => ({ dataset_id: r.row.datasetId, version: r.row.version, format: f.format, media_type: f.mediaType, filename: f.filename, text: f.text })),
    json_ld: r.exports.jsonLd,
  };
}

/** The public record of one published dataset (spec 4.1, Public, like search): for landing pages and citations. */
@Resolver()
export class PublishedDatasetResolver {
  constructor(private readonly service: PublishedDatasetService) {}

  @Query(
    () => PublishedDataset,
    rootLookup('A published dataset by slug: its public metadata, creators, published versions, citations (text, BibTeX, RIS) and schema.org JSON-LD; 404 for a dataset never published.'),
  )
  @Access(AccessClass.Public)
  async publishedDataset(
    @Ctx() ctx: RequestContext,
    @Arg('slug', () => String, { description: "the dataset's slug (or id)" }) slug: string,
  ): Promise<PublishedDataset> {
    const baseUrl = ctx.baseUrl ?? '';
    const viewer = ctx.viewer ? { ...actorOf(ctx), holdsAcademic: satisfies(classOf(ctx.viewer), AccessClass.Academic) } : null;
    return toPublishedDataset(await this.service.find(viewer, slug, baseUrl), baseUrl);
  }
}
