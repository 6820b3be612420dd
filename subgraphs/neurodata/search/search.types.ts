import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../../schema/page.types.js';
import { RowCountsView, TermValue } from '../dataset.types.js';

@ObjectType({ description: 'An ontology term a query word or a filter value was read as.' })
export class InterpretedTerm {
  @Field(() => String, { description: 'the words or the filter value as given' })
  text!: string;

  @Field(() => ID)
  term_id!: string;

  @Field(() => String)
  code!: string;

  @Field(() => String)
  label!: string;

  @Field(() => String)
  vocabulary!: string;

  @Field(() => Int, { description: 'terms matched: this one, its descendants and the deprecated terms they replaced' })
  matched_terms!: number;
}

@ObjectType({ description: 'A term annotation of the dataset that matched a query word or a filter value.' })
export class SearchTermMatch {
  @Field(() => String, { description: 'the query words or filter value it answers' })
  matched!: string;

  @Field(() => String, { description: 'code of the term the words were read as, e.g. MBA:1080' })
  term_code!: string;

  @Field(() => String)
  term_label!: string;

  @Field(() => TermValue, { description: 'the annotation: that term or a narrower one (e.g. Field CA1 for hippocampus)' })
  annotation!: TermValue;
}

@ObjectType({ description: 'Matched words highlighted: the text is HTML-escaped and each match is wrapped in <mark>...</mark>.' })
export class SearchHighlight {
  @Field(() => String)
  title!: string;

  @Field(() => String, { description: 'up to two fragments of the description around the matches (its beginning when the match is elsewhere)' })
  snippet!: string;
}

@ObjectType({ description: 'The cluster of the federation a search hit comes from.' })
export class SearchHitCluster {
  @Field(() => ID, { nullable: true, description: "the cluster's id in this cluster's registry; null for this cluster" })
  id!: string | null;

  @Field(() => String, { description: 'the cluster name (CLUSTER_NAME)' })
  name!: string;

  @Field(() => String, { description: "the cluster's base URL" })
  base_url!: string;
}

@ObjectType({ description: 'How one cluster answered a federated search.' })
export class FederatedSearchCluster {
  @Field(() => ID, { nullable: true, description: "the cluster's id in this cluster's registry; null for this cluster" })
  cluster_id!: string | null;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  base_url!: string;

  @Field(() => String, { description: 'ok | timeout | unreachable | refused | error' })
  status!: string;

  @Field(() => Int, { nullable: true, description: 'the total of hits the cluster reported; null when it did not answer' })
  hits!: number | null;

  @Field(() => Float, { nullable: true, description: 'how long the cluster took to answer, in milliseconds' })
  latency_ms!: number | null;

  @Field(() => String, { nullable: true, description: 'what went wrong, when status is not ok' })
  error!: string | null;
}

/** What a search hit and a dataset's public record both show: the catalogue row's public metadata. */
@ObjectType()
export abstract class CatalogueEntry {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => String)
  slug!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Int, { description: 'the current (latest published) version' })
  version!: number;

  @Field(() => String, { description: 'public | restricted (restricted: metadata only; request access to read the data)' })
  visibility!: string;

  @Field(() => String, { nullable: true, description: 'SPDX identifier' })
  license!: string | null;

  @Field(() => Int, { description: "the related paper's year, or the year of first publication here" })
  year!: number;

  @Field(() => [String])
  keywords!: string[];

  @Field(() => [TermValue])
  species!: TermValue[];

  @Field(() => [TermValue])
  brain_regions!: TermValue[];

  @Field(() => [TermValue])
  microscopy!: TermValue[];

  @Field(() => [TermValue])
  neurotransmitters!: TermValue[];
}

@ObjectType({ description: "One published dataset found by a search: its current version's public metadata." })
export class DatasetSearchHit extends CatalogueEntry {
  @Field(() => Float, { description: 'relevance: title matches weigh most, then keywords, then description, then term labels' })
  score!: number;

  @Field(() => SearchHighlight)
  highlight!: SearchHighlight;

  @Field(() => [SearchTermMatch], { description: 'annotations that matched a term the query or a filter named' })
  matched_terms!: SearchTermMatch[];

  @Field(() => RowCountsView, { nullable: true, description: 'row counts of the version; null unless the caller may read the data' })
  counts!: RowCountsView | null;

  @Field(() => String, { description: "the dataset's record (GET, Academic)" })
  url!: string;

  @Field(() => Date, { description: 'first publication here' })
  published_at!: Date;

  @Field(() => Date, { description: 'publication of the version shown' })
  version_published_at!: Date;

  @Field(() => SearchHitCluster, { description: 'the cluster holding the dataset (this one, or another of the federation)' })
  cluster!: SearchHitCluster;
}

@ObjectType()
export class FacetCount {
  @Field(() => String, { description: 'the value to filter by (a term code, licence, year or visibility)' })
  value!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Int, { description: 'datasets among all hits' })
  count!: number;
}

@ObjectType({ description: 'Counts over every hit (not only the page), for each filter; term facets list the 50 largest values.' })
export class SearchFacets {
  @Field(() => [FacetCount])
  species!: FacetCount[];

  @Field(() => [FacetCount])
  brain_region!: FacetCount[];

  @Field(() => [FacetCount])
  microscopy!: FacetCount[];

  @Field(() => [FacetCount])
  neurotransmitter!: FacetCount[];

  @Field(() => [FacetCount])
  license!: FacetCount[];

  @Field(() => [FacetCount])
  year!: FacetCount[];

  @Field(() => [FacetCount])
  visibility!: FacetCount[];
}

@ObjectType({ description: 'Search results, most relevant first, with facet counts over all hits.' })
export class DatasetSearchResult extends PageOf(DatasetSearchHit) {
  @Field(() => SearchFacets, { nullable: true, description: 'null when facets=false' })
  facets!: SearchFacets | null;

  @Field(() => String, { description: 'the query as received' })
  query!: string;

  @Field(() => String, { nullable: true, description: 'the query with misspelled words corrected, when nothing matched as typed' })
  corrected_query!: string | null;

  @Field(() => [InterpretedTerm], { description: 'ontology terms the query words and filter values were read as' })
  interpreted!: InterpretedTerm[];

  @Field(() => String, { description: 'postgres | typesense' })
  engine!: string;

  @Field(() => String, { description: 'local | federation' })
  scope!: string;

  @Field(() => [FederatedSearchCluster], { nullable: true, description: 'federation scope: how each cluster answered (this one first); null for local scope' })
  clusters!: FederatedSearchCluster[] | null;
}
