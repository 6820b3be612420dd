import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { JSONObjectScalar } from '../../schema/scalars.js';
import type { ExportService } from './export.service.js';
import { DatasetCitation } from './export.types.js';
import { actorOf } from './dataset.mappers.js';

/** Citations and linked-data metadata (served as text by the citation and metadata.jsonld routes). */
@Resolver()
export class ExportResolver {
  constructor(private readonly service: ExportService) {}

  @Query(() => DatasetCitation, { description: 'The citation of a version (default the latest) as BibTeX or RIS.' })
  @Access(AccessClass.Academic)
  async datasetCitation(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, { nullable: true }) version?: string,
    @Arg('format', () => String, { nullable: true, description: 'bibtex (default) | ris' }) format?: string,
    @Arg('accept', () => String, { nullable: true, description: 'the Accept header, consulted when format is absent' }) accept?: string,
  ): Promise<DatasetCitation> {
    const c = await this.service.citation(actorOf(ctx), datasetId, { version, format, accept, baseUrl: ctx.baseUrl ?? '' });
    return { dataset_id: c.datasetId, version: c.version, format: c.format, media_type: c.mediaType, filename: c.filename, text: c.text };
  }

  @Query(() => JSONObjectScalar, { description: 'schema.org Dataset metadata of a version (default the latest) as JSON-LD.' })
  @Access(AccessClass.Academic)
  async datasetJsonLd(
    @Ctx() ctx: RequestContext,
    @Arg('dataset_id', () => String) datasetId: string,
    @Arg('version', () => String, { nullable: true }) version?: string,
  ): Promise<Record<string, unknown>> {
    return this.service.jsonLd(actorOf(ctx), datasetId, { version, baseUrl: ctx.baseUrl ?? '' });
  }
}
