import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../lib/context.js';
import type { ColumnStore } from '../../lib/column/column.js';
import type { ChQuery } from '../../lib/column/sql.js';
import { unescapeTsv } from '../../lib/column/tsv.js';
import { AccessClass, actorOfViewer, requireClass } from '../../lib/access.js';
import { AppError, BadInput, Conflict } from '../../lib/errors.js';
import { currentRequestScope, remainingRequestTime } from '../../lib/request-scope.js';
import { parseSyql } from './syql/parser.js';
import { planQuery } from './syql/planner.js';
import { compileCount, compileQuery } from './syql/compile.js';
import type { Parameters, PlannerEnv, ResolvedDataset, SyqlPlan } from './syql/plan.js';
import { decodeTsvRows, type Cell } from './syql/rows.js';
import { RunningQueries } from './running-queries.js';
import { engineLimits, limitExceededError, type SyqlLimits, type SyqlRunKind } from './syql-limits.js';

export type Caller = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>;

/** Builds the planner's view of the service for one caller: the datasets they may read, the region hierarchy. */
export type PlannerEnvFor = (ctx: Caller) => PlannerEnv;

export interface SyqlInput {
  query: string;
  parameters?: Parameters | null;
}

export interface ExecInput extends SyqlInput {
  query_id?: string | null;
  max_rows?: number | null;
}

/** Rows one exec answers at most; more belong in a job (docs/syql.md, Running queries). */
export const EXEC_MAX_ROWS = 10_000;
export const EXEC_DEFAULT_ROWS = 1_000;
const QUERY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The seconds a statement may run: its limit, and never past what is left of the request's time. */
function executionSeconds(limit: number): number {
  const left = remainingRequestTime();
  return Number.isFinite(left) ? Math.max(1, Math.min(limit, Math.ceil(left / 1000))) : limit;
}

/** SyQL's four operations: plan, explain, exec and cancel (spec 4.3 SyQL; docs/syql.md). */
export class SyqlService {
  constructor(
    private readonly column: ColumnStore,
    private readonly envFor: PlannerEnvFor,
    readonly limits: SyqlLimits,
    private readonly running = new RunningQueries(limits.maxConcurrentPerUser),
  ) {}

  /** Parses and checks a query for the caller, resolving its datasets (`pins`: versions fixed earlier, by reference). */
  async plan(ctx: Caller, input: SyqlInput, pins?: Record<string, number>): Promise<SyqlPlan> {
    await requireClass(ctx, AccessClass.Academic);
    if (typeof input.query !== 'string' || !input.query.trim()) throw new BadInput('query: give the SyQL text, e.g. MATCH (a:Neuron) IN "celegans_varshney_2011" RETURN count(*)');
    if (input.parameters != null && (typeof input.parameters !== 'object' || Array.isArray(input.parameters))) throw new BadInput('parameters: must be an object of $name values');
    return planQuery(parseSyql(input.query), input.parameters ?? {}, this.envFor(ctx), { pins, maxEstimatedRows: this.limits.maxEstimatedRows });
  }

  describe(plan: SyqlPlan) {
    return {
      normalised: plan.normalised,
      datasets: plan.datasets.map(datasetOut),
      columns: plan.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, clickhouse_type: c.chType })),
      parameters: Object.keys(plan.parameters),
    };
  }

  async explain(ctx: Caller, input: SyqlInput) {
    const plan = await this.plan(ctx, input);
    const q = compileQuery(plan);
    return {
      ...this.describe(plan),
      sql: q.sql,
      bound_parameters: Object.entries(q.params).map(([name, p]) => ({ name, type: p.type, value: p.value })),
      engine: this.column.kind,
      engine_plan: await this.enginePlan(q),
      estimated_rows_read: estimateRowsRead(plan),
    };
  }

  async exec(ctx: Caller, input: ExecInput) {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    const queryId = input.query_id ?? randomUUID();
    if (!QUERY_ID.test(queryId)) throw new BadInput('query_id: 1 to 64 letters, digits, - or _');
    const maxRows = input.max_rows ?? EXEC_DEFAULT_ROWS;
    if (!Number.isInteger(maxRows) || maxRows < 0 || maxRows > EXEC_MAX_ROWS) throw new BadInput(`max_rows: an integer from 0 to ${EXEC_MAX_ROWS} (larger results: POST /v1/jobs)`);
    const plan = await this.plan(ctx, input);
    const entry = this.running.start(viewer.id, queryId);
    const started = performance.now();
    const scope = currentRequestScope()?.signal;
    const signal = scope ? AbortSignal.any([scope, entry.abort.signal]) : entry.abort.signal;
    try {
      const rows = await this.rows(compileQuery(plan, { maxRows: maxRows + 1 }), plan, entry.engineId, 'SyqlService.exec', { signal });
      let total = rows.length;
      if (rows.length > maxRows) {
        rows.length = maxRows;
        const [count] = await this.rows(compileCount(plan), { ...plan, columns: [{ name: 'count', type: 'integer', nullable: false, chType: 'Int64' }] }, entry.engineId, 'SyqlService.count', { signal });
        total = Number(count[0]);
      }
      return {
        query_id: queryId,
        ...this.describe(plan),
        rows,
        total,
        truncated: total > rows.length,
        elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
      };
    } catch (e) {
      if (entry.cancelled) throw new Conflict(`query ${queryId} was cancelled (POST /v1/syql/cancel) before it finished`);
      throw e;
    } finally {
      this.running.finish(entry);
    }
  }

  async cancel(ctx: Caller, input: { query_id: string }) {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    if (!QUERY_ID.test(input.query_id ?? '')) throw new BadInput('query_id: 1 to 64 letters, digits, - or _');
    const entries = this.running.claimForCancel(input.query_id, actorOfViewer(viewer));
    let stopped = false;
    for (const entry of entries) {
      // The engine first, so its answer says whether the query was there; then the exec, wherever it waits.
      stopped = (await this.column.kill(entry.engineId)) || stopped;
      entry.abort.abort();
    }
    return { query_id: input.query_id, cancelled: true, engine_stopped: stopped };
  }

  /**
   * Runs a compiled query and decodes its TabSeparated rows, under the engine's limits of `kind` (an interactive
   * exec stops at its time limit or the request's deadline, whichever is first). A limit the engine stopped it at
   * becomes the error that names it (syql-limits.ts).
   */
  async rows(q: ChQuery, plan: Pick<SyqlPlan, 'columns'>, queryId: string, name: string, opts: { kind?: SyqlRunKind; signal?: AbortSignal } = {}): Promise<Cell[][]> {
    const kind = opts.kind ?? 'exec';
    const out: Cell[][] = [];
    const signal = opts.signal ?? currentRequestScope()?.signal;
    const seconds = kind === 'job' ? this.limits.jobMaxExecutionSeconds : executionSeconds(this.limits.maxExecutionSeconds);
    try {
      const lane = kind === 'job' ? 'background' : 'interactive';
      for await (const chunk of this.column.queryTsv(q, { name, queryId, maxExecutionTime: seconds, signal, limits: engineLimits(this.limits, kind), parallel: true, lane })) {
        decodeTsvRows(chunk, plan.columns, out);
      }
    } catch (e) {
      throw limitExceededError(e, this.limits, kind, seconds) ?? e;
    }
    return out;
  }

  /** The engine's own plan where it has one (chDB: EXPLAIN); Debian's ClickHouse 18.16 has no EXPLAIN. */
  private async enginePlan(q: ChQuery): Promise<string | null> {
    if (this.column.kind !== 'chdb') return null;
    try {
      const lines: string[] = [];
      for await (const chunk of this.column.queryTsv({ sql: `EXPLAIN PLAN actions = 0 ${q.sql}`, params: q.params }, { name: 'SyqlService.explain' })) lines.push(chunk);
      return lines.join('').split('\n').map(unescapeTsv).join('\n').trimEnd();
    } catch (e) {
      if (e instanceof AppError) throw e;
      return null;
    }
  }
}

function datasetOut(d: ResolvedDataset) {
  return { ref: d.ref, dataset_id: d.datasetId, slug: d.slug, version: d.version, is_draft: d.isDraft, label: d.label };
}

/** Rows of the tables the query reads, per dataset: what a full scan of its partitions costs at most. */
function estimateRowsRead(plan: SyqlPlan): number {
  const { nodes, rels } = plan.query.match;
  const morphology = nodes.some((n) => n.label === 'Morphology') || rels.some((r) => r.types.some((t) => t.name === 'HAS_MORPHOLOGY'));
  const synapses = rels.some((r) => !r.types.length || r.types.some((t) => t.name !== 'HAS_MORPHOLOGY'));
  const hops = Math.max(1, ...rels.map((r) => r.hops?.max ?? 1));
  let n = 0;
  for (const d of plan.datasets) {
    n += d.rowCounts.neurons;
    if (synapses) n += d.rowCounts.connections * hops;
    if (morphology) n += d.rowCounts.morphologies;
  }
  return n;
}
