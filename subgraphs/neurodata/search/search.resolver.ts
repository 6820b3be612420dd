import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../../lib/access.js';
import type { RequestContext } from '../../../lib/context.js';
import { BadInput } from '../../../lib/errors.js';
import { actorOf, toRowCountsView } from '../dataset.mappers.js';
import { searchFederation, type SearchFederation } from './federated-search.js';
import type { DatasetSearchService, SearchOutcome } from './search.service.js';
import { DatasetSearchResult, type SearchHitCluster } from './search.types.js';
import { toCatalogueEntry } from './search.mappers.js';

const LIST = (description: string) => ({ nullable: true, description }) as const;

function toResult(o: SearchOutcome, baseUrl: string, cluster: SearchHitCluster): DatasetSearchResult {
  return {
    items: o.hits.map((h) => ({
      ...toCatalogueEntry(h.row),
      score: Math.round(h.row.score * 1e6) / 1e6,
      highlight: { title: h.titleHtml, snippet: h.snippetHtml },
      matched_terms: h.matchedTerms.map((t) => ({
        matched: t.matched,
        term_code: t.term.code,
        term_label: t.term.label,
        annotation: { term_id: t.annotation.termId, code: t.annotation.code, label: t.annotation.label, vocabulary: t.annotation.vocabulary, uri: t.annotation.uri, term: { id: t.annotation.termId } },
      })),
      counts: h.counts ? toRowCountsView(h.counts) : null,
      url: `${baseUrl}/v1/neurodata/datasets/${h.row.datasetId}`,
      published_at: h.row.publishedAt,
      version_published_at: h.row.versionPublishedAt,
      cluster,
    })),
    total: o.total,
    limit: o.limit,
    offset: o.offset,
    facets: o.facets,
    query: o.query,
    corrected_query: o.correctedQuery,
    interpreted: o.interpreted.map((t) => ({ text: t.text, term_id: t.term.id, code: t.term.code, label: t.term.label, vocabulary: t.term.vocabulary, matched_terms: t.matchIds.length })),
    engine: o.engine,
    scope: 'local',
    clusters: null,
  };
}

/** Full-text dataset search (spec 4.1, Public): the catalogue's public metadata, for everyone. */
@Resolver()
export class SearchResolver {
  constructor(
    private readonly service: DatasetSearchService,
    private readonly federation: SearchFederation,
  ) {}

  @Query(() => DatasetSearchResult, {
    description:
      'Searches published datasets: words, "phrases", `or`, `-exclusions`; ontology terms in the query or the filters match their descendants; misspelled words are corrected when nothing matches.',
  })
  @Access(AccessClass.Public)
  async searchDatasets(
    @Ctx() ctx: RequestContext,
    @Arg('q', () => String, { nullable: true, description: 'the query (at most 500 characters); empty lists every published dataset' }) q?: string,
    @Arg('species', () => [String], LIST('species terms by code, label or synonym (NCBITaxon:6239, Caenorhabditis elegans, worm); any of them')) species?: string[],
    @Arg('brain_region', () => [String], LIST('brain regions by code, label or acronym; a region matches its subregions too')) brainRegion?: string[],
    @Arg('microscopy', () => [String], LIST('microscopy techniques by code, label or synonym')) microscopy?: string[],
    @Arg('neurotransmitter', () => [String], LIST('neurotransmitters by code, label or synonym')) neurotransmitter?: string[],
    @Arg('license', () => [String], LIST('SPDX identifiers, e.g. CC-BY-4.0')) license?: string[],
    @Arg('year', () => String, { nullable: true, description: 'a year (2019) or a range (2015-2020)' }) year?: string,
    @Arg('visibility', () => String, { nullable: true, description: 'public | restricted' }) visibility?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1..100, default 20' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '0..10000, default 0' }) offset?: number,
    @Arg('facets', () => Boolean, { nullable: true, description: 'count hits per filter value (default true)' }) facets?: boolean,
    @Arg('scope', () => String, { nullable: true, description: 'local (default) | federation: also search every active cluster of the federation' }) scope?: string,
  ): Promise<DatasetSearchResult> {
    const where = scope === undefined || scope === null || scope === '' ? 'local' : scope;
    if (where !== 'local' && where !== 'federation') throw new BadInput('scope: local or federation');
    const viewer = ctx.viewer ? actorOf(ctx) : null;
    const baseUrl = ctx.baseUrl ?? '';
    const self: SearchHitCluster = { id: null, name: this.federation.clusterName, base_url: baseUrl };
    const filters = { q, species, brain_region: brainRegion, microscopy, neurotransmitter, license, year, visibility, facets };
    if (where === 'local') return toResult(await this.service.search(viewer, { ...filters, limit, offset }), baseUrl, self);
    return searchFederation(this.federation, {
      search: filters,
      limit,
      offset,
      self,
      signal: ctx.signal,
      local: async (depth) => toResult(await this.service.search(viewer, { ...filters, limit: depth, offset: 0 }), baseUrl, self),
    });
  }
}
