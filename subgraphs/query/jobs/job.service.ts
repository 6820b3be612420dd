import type { Clock } from '../../../lib/clock.js';
import type { DataRead, DownloadSigner } from '../../../lib/objects/signed-url.js';
import { AccessClass, requireClass } from '../../../lib/access.js';
import { BadInput, Conflict, Forbidden, NotFound } from '../../../lib/errors.js';
import type { Caller, SyqlService } from '../syql.service.js';
import type { JobQueue } from './job-queue.js';
import { JOB_STATUSES, isFinished, type JobRecord, type JobStatus } from './job.model.js';
import { pinsOf, readsOf, type SyqlJobInput } from './job-input.js';
import { ARROW_STREAM_MEDIA_TYPE } from '../results/arrow-export.js';

/** Checks a graph job's dataset before it is queued (access, version), pinning the version it resolved to. */
export type GraphJobCheck = (ctx: Caller, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Throws unless the caller may still read these dataset versions now (the neurodata subgraph's decision). */
export type ReadCheck = (ctx: Caller, reads: readonly DataRead[]) => Promise<void>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESULT_URL_SECONDS = 3600;

/** Jobs as their owner sees them: submit, list, look at, cancel or delete, rerun, download (spec 4.3 Jobs; docs/jobs.md). */
export class JobService {
  constructor(
    private readonly queue: JobQueue,
    private readonly syql: SyqlService,
    private readonly checkGraph: GraphJobCheck,
    private readonly checkReads: ReadCheck,
    private readonly signer: DownloadSigner,
    private readonly clock: Clock,
  ) {}

  /** A SyQL job: planned now (errors answer at once), run later on the dataset versions it resolved to now. */
  async submitSyql(ctx: Caller, input: { query: string; parameters?: Record<string, unknown> | null }, savedQueryId: string | null = null, pinned?: Record<string, number>): Promise<JobRecord> {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    const plan = await this.syql.plan(ctx, input, pinned);
    const jobInput: SyqlJobInput = { query: input.query, parameters: input.parameters ?? {}, pins: pinsOf(plan) };
    return this.queue.enqueue(viewer.id, 'syql', jobInput as unknown as Record<string, unknown>, savedQueryId);
  }

  async submitGraph(ctx: Caller, args: Record<string, unknown>): Promise<JobRecord> {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    return this.queue.enqueue(viewer.id, 'graph', await this.checkGraph(ctx, args));
  }

  async list(ctx: Caller, args: { status?: string | null; limit?: number | null; offset?: number | null }) {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    const statuses = args.status ? args.status.split(',').map((s) => s.trim()) : [];
    for (const s of statuses) if (!(JOB_STATUSES as readonly string[]).includes(s)) throw new BadInput(`status: one of ${JOB_STATUSES.join(', ')} (comma-separated for several); got ${JSON.stringify(s)}`);
    const limit = args.limit ?? 20;
    const offset = args.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new BadInput('limit: an integer from 1 to 100');
    if (!Number.isInteger(offset) || offset < 0) throw new BadInput('offset: a non-negative integer');
    const page = await this.queue.list(viewer.id, { statuses: statuses as JobStatus[], limit, offset });
    const items = [];
    for (const job of page.items) items.push(await this.present(ctx, job));
    return { items, total: page.total, limit, offset };
  }

  /** The caller's job (any job for a SuperUser); another user's job is not found, as if it did not exist. */
  async get(ctx: Caller, id: string): Promise<JobRecord> {
    const viewer = await requireClass(ctx, AccessClass.Academic);
    const job = UUID.test(id) ? await this.queue.get(id) : undefined;
    if (!job || (job.ownerId !== viewer.id && viewer.accountType !== 'SUPERUSER')) throw new NotFound(`no job ${id}`);
    return job;
  }

  /** The caller's job as they may see it now (`present`). */
  async view(ctx: Caller, id: string): Promise<JobRecord> {
    return this.present(ctx, await this.get(ctx, id));
  }

  /**
   * A job as the caller may see it now: a graph job's `result_meta` holds its whole analysis, data of its dataset,
   * so it is withheld (with the reason) once the caller may no longer read that dataset; the rest of the job stays.
   */
  private async present(ctx: Caller, job: JobRecord): Promise<JobRecord> {
    if (job.kind !== 'graph' || !job.resultMeta?.analysis) return job;
    try {
      await this.checkReads(ctx, readsOf(job));
      return job;
    } catch (e) {
      if (e instanceof NotFound || e instanceof Forbidden) return { ...job, resultMeta: { withheld: e.message } };
      throw e;
    }
  }

  /** Cancels a queued or running job (it stays listed, cancelled); deletes a finished one and its result. */
  async remove(ctx: Caller, id: string): Promise<{ job_id: string; action: 'cancelled' | 'deleted'; status: JobStatus }> {
    const job = await this.get(ctx, id);
    if (!isFinished(job.status)) {
      const after = await this.queue.cancel(id);
      if (after && after.status === 'cancelled') return { job_id: id, action: 'cancelled', status: 'cancelled' };
      // It finished meanwhile: delete it as a finished job.
    }
    const deleted = await this.queue.delete(id);
    if (!deleted) throw new NotFound(`no job ${id}`);
    return { job_id: id, action: 'deleted', status: deleted.status };
  }

  /** A new job with the same input (the same text, parameters and pinned versions, or the same graph analysis). */
  async rerun(ctx: Caller, id: string): Promise<JobRecord> {
    const job = await this.get(ctx, id);
    if (job.kind === 'syql') {
      const input = job.input as unknown as SyqlJobInput;
      return this.submitSyql(ctx, { query: input.query, parameters: input.parameters }, job.savedQueryId, input.pins);
    }
    return this.submitGraph(ctx, job.input);
  }

  /**
   * Where the finished result can be downloaded: a signed URL valid for an hour, with its size and checksum. The
   * result is data of the datasets the job read: the caller must still be allowed to read each of them now (access
   * withdrawn since the job ran answers as reading the dataset would), and so must they at every use of the URL.
   */
  async resultDownload(ctx: Caller, id: string, baseUrl: string) {
    const job = await this.get(ctx, id);
    if (job.status !== 'succeeded') throw new Conflict(`the job is ${job.status}: its result exists once it has succeeded`);
    if (!job.resultKey) throw new NotFound('this job has no result file');
    const reads = readsOf(job);
    await this.checkReads(ctx, reads);
    const filename = `job-${job.id}.arrow`;
    const expiresAt = new Date(Math.floor(this.clock.now().getTime() / 1000) * 1000 + RESULT_URL_SECONDS * 1000);
    const viewer = ctx.viewer!;
    const grant = this.signer.sign({ key: job.resultKey, expiresAt, filename, issuedTo: { id: viewer.id, remote: Boolean(viewer.origin) }, reads });
    return {
      url: `${baseUrl.replace(/\/+$/, '')}/v1/neurodata/files?grant=${grant}`,
      expires_at: expiresAt,
      size: job.resultBytes ?? 0,
      sha256: job.resultSha256 ?? '',
      rows: job.resultRows ?? 0,
      media_type: ARROW_STREAM_MEDIA_TYPE,
      filename,
    };
  }
}
