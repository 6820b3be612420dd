import type { DatasetRef, Query } from './ast.js';

/**
 * What the planner needs from the rest of the service. The query subgraph's service implements it with the
 * neurodata subgraph's access decision and the ontology's region hierarchy; unit tests implement it with fixtures.
 */
export interface PlannerEnv {
  /**
   * The dataset version a reference names, for the caller. Throws the service's errors as they are (NotFound,
   * Forbidden for a restricted dataset, Conflict when nothing is published): the planner does not catch them.
   * `pinned`, when given, is the version to use instead of what the reference's selector says (a saved query's job
   * runs on the versions resolved when it was submitted).
   */
  resolveDataset(ref: DatasetRef, pinned?: number): Promise<ResolvedDataset>;
  /**
   * The codes of the brain region `code` and every region below it in the ontology's brain_region hierarchy; null
   * when no region has that code.
   */
  regionCodesWithin(code: string): Promise<string[] | null>;
}

export interface ResolvedDataset {
  /** The reference as written: `"celegans_cook_2019_male"@latest`. */
  ref: string;
  datasetId: string;
  slug: string;
  version: number;
  isDraft: boolean;
  /** `slug@vN` (or `slug@draft`): the value of the `dataset` column when a query reads several datasets. */
  label: string;
  /** Rows of the version's tables, to size the work (docs/neurodata-tables.md). */
  rowCounts: { neurons: number; connections: number; morphologies: number };
}

/** Types of result columns, as SyQL names them; each maps to one ClickHouse type and one Arrow type. */
export type ValueType = 'string' | 'integer' | 'float' | 'boolean';

export interface ResultColumn {
  name: string;
  type: ValueType;
  nullable: boolean;
  /** The ClickHouse type the compiled SQL gives the column (String, Int64, Float64, UInt8, Nullable(Float64), ...). */
  chType: string;
}

/** The values of `$parameters`, as sent in the request's `parameters` object. */
export type Parameters = Record<string, unknown>;

/** A checked query, ready to compile: every name resolved, every type known, every dataset visible to the caller. */
export interface SyqlPlan {
  query: Query;
  /** The query re-printed in canonical form (keywords upper case, one clause per line, aliases made explicit). */
  normalised: string;
  datasets: ResolvedDataset[];
  columns: ResultColumn[];
  /** The parameter values, checked against where they are used. */
  parameters: Parameters;
  /** Region code sets of each WITHIN, looked up at plan time (keyed by the region code). */
  regions: Record<string, string[]>;
}
