import type { DatasetMetadata, RowCounts, TermValue, Visibility } from '../dataset.model.js';

/** A query word or phrase that names an ontology term, and every term a dataset may carry to match it. */
export interface RecognizedTerm {
  /** The words as typed. */
  text: string;
  term: { id: string; vocabulary: string; code: string; label: string };
  /** The term, its descendants and the deprecated terms they replaced. */
  matchIds: string[];
}

/** One required part of the query: its text (websearch syntax) or any of the terms it names. */
export interface PlanClause {
  /** websearch_to_tsquery's reading of the clause (tsquery text); null when it is only stop words. */
  tsquery: string | null;
  /** The clause as text (websearch syntax), for engines that parse their own. */
  text: string;
  terms: RecognizedTerm[];
}

/** A filter on one vocabulary: datasets annotated with any of `matchIds` (values given, with their descendants). */
export interface TermFilter {
  field: 'species' | 'brain_region' | 'microscopy' | 'neurotransmitter';
  values: RecognizedTerm[];
}

/** What to find: the engine-neutral form of a search request, after validation and ontology resolution. */
export interface SearchPlan {
  must: PlanClause[];
  mustNot: PlanClause[];
  /** Every positive word OR-ed (tsquery text), for ranking and highlighting; null when there is no text. */
  rankQuery: string | null;
  termFilters: TermFilter[];
  licenses: string[];
  years: { from: number; to: number } | null;
  visibility: Visibility | null;
  limit: number;
  offset: number;
  facets: boolean;
}

export interface SearchRow {
  datasetId: string;
  slug: string;
  visibility: Visibility;
  ownerId: string;
  maintainerIds: string[];
  version: number;
  metadata: DatasetMetadata;
  rowCounts: RowCounts;
  year: number;
  publishedAt: Date;
  versionPublishedAt: Date;
  score: number;
  /** Title and snippet with matches between \u0001 and \u0002 (made into <mark> after HTML escaping). */
  titleMarked: string;
  snippetMarked: string;
}

export interface FacetValue {
  value: string;
  label: string;
  count: number;
}

export interface Facets {
  species: FacetValue[];
  brain_region: FacetValue[];
  microscopy: FacetValue[];
  neurotransmitter: FacetValue[];
  license: FacetValue[];
  year: FacetValue[];
  visibility: FacetValue[];
}

export interface SearchResultPage {
  rows: SearchRow[];
  total: number;
  facets: Facets | null;
}

/** What a term annotation of a hit matched: a query word, or a filter value. */
export interface TermMatch {
  matched: string;
  term: RecognizedTerm['term'];
  annotation: TermValue;
}

/** A search engine behind the search service: PostgreSQL full text (always there) or Typesense (when configured). */
export interface DatasetSearchEngine {
  readonly name: 'postgres' | 'typesense';
  search(plan: SearchPlan): Promise<SearchResultPage>;
}
