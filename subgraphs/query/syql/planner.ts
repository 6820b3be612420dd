import { BadInput } from '../../../lib/errors.js';
import type { DatasetRef, Expr, Query } from './ast.js';
import type { Analysis } from './analysis.js';
import { filterConjuncts, orderAndPage, returnColumns } from './clauses.js';
import { estimateMatches } from './estimate.js';
import { ExprChecker } from './expr-check.js';
import { ParameterReader, checkParameterValues } from './parameters.js';
import { bindPattern } from './pattern-binding.js';
import type { Parameters, PlannerEnv, ResolvedDataset, SyqlPlan } from './plan.js';
import { printQuery } from './print.js';
import { syqlError } from './syntax-error.js';

/**
 * The SyQL planner: checks a syntax tree against the catalogue (labels, properties, relationship types), the
 * parameters and the caller's datasets, and resolves it into an analysis the compiler turns into ClickHouse SQL
 * (`compile.ts`). Every refusal is a 400 naming the line and column, with a suggestion for a misspelt name.
 *
 * `analyse()` is pure and synchronous: `planQuery()` runs it once to check the query and to name and type the result
 * columns, and the compiler runs it again on the plan (the plan carries only the query, the datasets, the parameter
 * values and the WITHIN regions).
 *
 * The analysis reads the query in this order, so the first problem in it is the one reported: the pattern
 * (`pattern-binding.ts`), the inline properties and WHERE, RETURN, ORDER BY with SKIP and LIMIT (`clauses.ts`, with
 * expressions checked by `expr-check.ts`), and last the parameters given but never used.
 */

export { MAX_SKIP_LIMIT } from './clauses.js';

export interface AnalyseInput {
  query: Query;
  parameters: Parameters;
  /** The codes under each region a WITHIN names (null: no such region). */
  regions: Record<string, string[] | null>;
}

export function analyse({ query, parameters, regions }: AnalyseInput): Analysis {
  const params = new ParameterReader(parameters);
  if (query.datasets.length === 0) throw syqlError(query.pos, 'name the datasets to read: MATCH ... IN "dataset"@latest');
  const pattern = bindPattern(query.match);
  const checker = new ExprChecker(pattern, params, regions);
  const conjuncts = filterConjuncts(query, pattern, checker, params);
  const returned = returnColumns(query, checker);
  const { orderBy, skip, limit } = orderAndPage(query, returned, checker, params);
  params.checkAllUsed();
  return {
    nodes: pattern.nodes,
    rels: pattern.rels,
    occurrences: pattern.occurrences,
    conjuncts,
    columns: returned.columns,
    multi: query.datasets.length > 1,
    aggregate: returned.aggregate,
    distinct: query.distinct,
    orderBy,
    skip,
    limit,
    slotClass: pattern.slotClass,
    keySlots: pattern.keySlots,
  };
}


/** The reference as text, the key of `pins`: `"celegans_cook_2019_male"@latest`, `"slug"@v3`, `"slug"@draft`. */
export function datasetRefText(ref: DatasetRef): string {
  const selector = ref.selector.kind === 'number' ? `v${ref.selector.version}` : ref.selector.kind;
  const escaped: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };
  return `"${[...ref.dataset].map((c) => escaped[c] ?? c).join('')}"@${selector}`;
}

/** The WITHIN regions a query names, as written or from its parameters (values that are not strings are refused later). */
function withinCodes(query: Query, parameters: Parameters): string[] {
  const codes = new Set<string>();
  const visit = (e: Expr | null): void => {
    if (!e) return;
    switch (e.kind) {
      case 'within': {
        const v = e.region.kind === 'literal' ? e.region.value : parameters[e.region.name];
        if (typeof v === 'string') codes.add(v);
        visit(e.left);
        break;
      }
      case 'comparison':
      case 'string-match':
      case 'logical':
        visit(e.left);
        visit(e.right);
        break;
      case 'in':
        visit(e.left);
        break;
      case 'is-null':
      case 'not':
        visit(e.operand);
        break;
      default:
        break;
    }
  };
  visit(query.where);
  return [...codes];
}

/**
 * Checks a query and resolves its datasets and regions: the plan the compiler turns into SQL. Throws a SyqlError
 * (400) for anything the query names that does not exist or does not fit, and the environment's own errors as they
 * are (a dataset the caller may not read).
 */
export async function planQuery(
  query: Query,
  parameters: Parameters | undefined,
  env: PlannerEnv,
  opts: { pins?: Record<string, number>; maxEstimatedRows?: number } = {},
): Promise<SyqlPlan> {
  const params: Parameters = parameters ?? {};
  checkParameterValues(params);

  const lookups: Record<string, string[] | null> = {};
  for (const code of withinCodes(query, params)) lookups[code] = await env.regionCodesWithin(code);
  const analysis = analyse({ query, parameters: params, regions: lookups });

  const datasets: ResolvedDataset[] = [];
  const seen = new Map<string, DatasetRef>();
  for (const [i, ref] of query.datasets.entries()) {
    const text = datasetRefText(ref);
    const pinned = opts.pins?.[text] ?? opts.pins?.[String(i)];
    const resolved = await env.resolveDataset(ref, pinned);
    const key = `${resolved.datasetId}@${resolved.version}`;
    const before = seen.get(key);
    if (before) {
      throw syqlError(ref.pos, `${datasetRefText(ref)} is the same dataset version as ${datasetRefText(before)} (${resolved.label}): name each dataset version once`);
    }
    seen.set(key, ref);
    datasets.push(resolved);
  }

  const regions: Record<string, string[]> = {};
  for (const [code, codes] of Object.entries(lookups)) if (codes) regions[code] = codes;

  if (opts.maxEstimatedRows !== undefined) {
    const estimate = estimateMatches(query, params, datasets);
    if (estimate > opts.maxEstimatedRows) {
      throw new BadInput(
        `the pattern may match about ${estimate.toExponential(1)} rows in ${datasets.map((d) => d.label).join(', ')}, more than the ${opts.maxEstimatedRows.toExponential(0)} a query may (SYQL_MAX_ESTIMATED_ROWS), so it was not run. ` +
          'Narrow it: give a node a name or id (WHERE a.name = $n, or {name: "AVAL"}), filter nodes by class or type, restrict regions with WITHIN, ' +
          'use fewer relationships or shorter *min..max ranges, or read one dataset at a time. LIMIT does not help: count(*), DISTINCT and ORDER BY still go through every match',
      );
    }
  }

  return {
    query,
    normalised: printQuery(query),
    datasets,
    columns: analysis.columns.map(({ name, type, nullable, chType }) => ({ name, type, nullable, chType })),
    parameters: params,
    regions,
  };
}

/** Re-analyses a plan (as the compiler does): its parameters and regions were checked when it was made. */
export function analysePlan(plan: SyqlPlan): Analysis {
  return analyse({ query: plan.query, parameters: plan.parameters, regions: plan.regions });
}
