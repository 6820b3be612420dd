import type { Clock } from '../../lib/clock.js';
import { AccessClass, requireClass } from '../../lib/access.js';
import { BadInput, NotFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { SavedQueryRecord, SavedQueryStore } from './store/saved-query.store.js';
import type { Caller, SyqlService } from './syql.service.js';
import { parseSyql } from './syql/parser.js';
import type { JobQueue, JobRecord } from '../../lib/jobs/index.js';
import type { SyqlJobInput } from './jobs/job-input.js';
import type { SubmitSyqlJob } from './jobs/syql-job.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SavedQueryFields {
  name?: string | null;
  description?: string | null;
  query?: string | null;
  parameters?: Record<string, unknown> | null;
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !name.trim() || name.length > 200) throw new BadInput('name: 1 to 200 characters');
  return name.trim();
}

function checkDescription(d: unknown): string | null {
  if (d == null) return null;
  if (typeof d !== 'string' || d.length > 5000) throw new BadInput('description: at most 5000 characters');
  return d;
}

/** Saved queries (spec 4.3 Saved queries): owner-only; running one queues a SyQL job. */
export class SavedQueryService {
  constructor(
    private readonly store: SavedQueryStore,
    private readonly syql: SyqlService,
    private readonly submitJob: SubmitSyqlJob,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  async list(ctx: Caller, args: { limit?: number | null; offset?: number | null }) {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    const limit = args.limit ?? 20;
    const offset = args.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new BadInput('limit: an integer from 1 to 100');
    if (!Number.isInteger(offset) || offset < 0) throw new BadInput('offset: a non-negative integer');
    const page = await this.store.list(viewer.id, { limit, offset });
    return { items: page.items, total: page.total, limit, offset };
  }

  /** Saves a query whose syntax is right; its datasets are checked when it runs (they may be published later). */
  async create(ctx: Caller, f: SavedQueryFields): Promise<SavedQueryRecord> {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    if (typeof f.query !== 'string' || !f.query.trim()) throw new BadInput('query: the SyQL text to save');
    parseSyql(f.query);
    return this.store.insert({ id: newId(), ownerId: viewer.id, name: checkName(f.name), description: checkDescription(f.description), syql: f.query, parameters: this.params(f.parameters), createdAt: this.clock.now() });
  }

  /** Plans the query first (datasets, properties, parameters all checked), then saves its canonical text. */
  async createFromSyql(ctx: Caller, f: SavedQueryFields): Promise<{ saved: SavedQueryRecord; plan: ReturnType<SyqlService['describe']> }> {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    const plan = await this.syql.plan(ctx, { query: f.query ?? '', parameters: f.parameters });
    const name = f.name == null ? plan.normalised.split('\n')[0].slice(0, 200) : checkName(f.name);
    const saved = await this.store.insert({ id: newId(), ownerId: viewer.id, name, description: checkDescription(f.description), syql: plan.normalised, parameters: plan.parameters, createdAt: this.clock.now() });
    return { saved, plan: this.syql.describe(plan) };
  }

  async get(ctx: Caller, id: string): Promise<SavedQueryRecord> {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    const q = UUID.test(id) ? await this.store.find(id) : undefined;
    if (!q || q.ownerId !== viewer.id) throw new NotFound(`no saved query ${id}`);
    return q;
  }

  async update(ctx: Caller, id: string, f: SavedQueryFields): Promise<SavedQueryRecord> {
    await this.get(ctx, id);
    if (f.query != null) parseSyql(f.query);
    const change = {
      ...(f.name != null ? { name: checkName(f.name) } : {}),
      ...(f.description !== undefined ? { description: checkDescription(f.description) } : {}),
      ...(f.query != null ? { syql: f.query } : {}),
      ...(f.parameters != null ? { parameters: this.params(f.parameters) } : {}),
    };
    return (await this.store.update(id, change, this.clock.now()))!;
  }

  async delete(ctx: Caller, id: string): Promise<{ id: string; deleted: boolean }> {
    await this.get(ctx, id);
    return { id, deleted: await this.store.delete(id) };
  }

  /** Runs it now as a job on the versions its references name (@latest: the latest now); the job echoes them. */
  async run(ctx: Caller, id: string): Promise<JobRecord> {
    const q = await this.get(ctx, id);
    const job = await this.submitJob(ctx, { query: q.syql, parameters: q.parameters }, q.id);
    await this.store.recordRun(q.id, job.id, this.clock.now());
    return job;
  }

  /** Re-resolves @latest and runs again; the previous run's job and result stay available. */
  async refresh(ctx: Caller, id: string) {
    const before = await this.get(ctx, id);
    const previous = before.lastJobId ? await this.queue.get(before.lastJobId) : undefined;
    const job = await this.run(ctx, id);
    const was = (previous?.input as unknown as SyqlJobInput | undefined)?.pins ?? {};
    const now = (job.input as unknown as SyqlJobInput).pins;
    return {
      saved: (await this.store.find(id))!,
      job,
      previous_job: previous ?? null,
      versions: Object.entries(now).map(([ref, version]) => ({ ref, version, previous_version: was[ref] ?? null, changed: was[ref] !== undefined && was[ref] !== version })),
    };
  }

  private params(p: unknown): Record<string, unknown> {
    if (p == null) return {};
    if (typeof p !== 'object' || Array.isArray(p)) throw new BadInput('parameters: an object of $name values');
    return p as Record<string, unknown>;
  }
}
