import type { Clock } from '../clock.js';
import type { DataRead, DownloadSigner } from '../objects/signed-url.js';
import { AccessClass, requireClass } from '../access.js';
import { BadInput, Conflict, Forbidden, NotFound } from '../errors.js';
import type { JobQueue } from './job-queue.js';
import { notOffered, type Caller, type JobKind, type JobKinds } from './job-kind.js';
import { JOB_STATUSES, isFinished, type JobInput, type JobRecord, type JobStatus } from './job.model.js';
import { ARROW_STREAM_MEDIA_TYPE } from './job-result.js';

/** Throws unless the caller may still read these dataset versions now (the neurodata subgraph's decision). */
export type ReadCheck = (ctx: Caller, reads: readonly DataRead[]) => Promise<void>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESULT_URL_SECONDS = 3600;

/** Queues a job of `kind` for the caller (Academic), with its input as the kind checked and pinned it. */
export async function submitJob(queue: JobQueue, ctx: Caller, kind: JobKind, input: JobInput, savedQueryId: string | null = null): Promise<JobRecord> {
  const viewer = await requireClass(ctx, AccessClass.Academic);
  return queue.enqueue(viewer.id, kind.name, await kind.prepare(ctx, input), savedQueryId);
}

/** Jobs as their owner sees them: submit, list, look at, cancel or delete, rerun, download (spec 4.3 Jobs; docs/jobs.md). */
export class JobService {
  constructor(
    private readonly queue: JobQueue,
    private readonly kinds: JobKinds,
    private readonly checkReads: ReadCheck,
    private readonly signer: DownloadSigner,
    private readonly clock: Clock,
  ) {}

  /**
   * A job of `kind` for the caller (Academic): its input is checked and pinned now (errors answer at once) and run
   * later. `savedQueryId` links it to the saved query that started it.
   */
  submit(ctx: Caller, kind: JobKind, input: JobInput, savedQueryId: string | null = null): Promise<JobRecord> {
    return submitJob(this.queue, ctx, kind, input, savedQueryId);
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
   * A job as the caller may see it now, by its kind's `present` (a graph job withholds an analysis they may no longer
   * read). A job of a kind this cluster no longer offers keeps no result anyone could be checked for.
   */
  private async present(ctx: Caller, job: JobRecord): Promise<JobRecord> {
    const kind = await this.kinds.get(job.kind);
    if (!kind) return job.resultMeta ? { ...job, resultMeta: { withheld: notOffered(job.kind) } } : job;
    return kind.present ? kind.present(ctx, job) : job;
  }

  private async kindOf(job: JobRecord): Promise<JobKind> {
    const kind = await this.kinds.get(job.kind);
    if (!kind) throw new Forbidden(notOffered(job.kind));
    return kind;
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
    return this.submit(ctx, await this.kindOf(job), job.input, job.savedQueryId);
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
    const reads = (await this.kindOf(job)).reads(job);
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
