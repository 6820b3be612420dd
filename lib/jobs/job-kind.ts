import type { RequestContext } from '../context.js';
import type { DataRead } from '../objects/signed-url.js';
import type { RecoveredJob } from './job.store.js';
import type { JobExecutor, JobInput, JobRecord } from './job.model.js';

/** Who submits, looks at or owns a job: a request's caller, or a job owner as the runner rebuilds them. */
export type Caller = Pick<RequestContext, 'viewer' | 'authError' | 'reloadViewer' | 'log'>;

/**
 * A kind of job, registered by the subgraph that owns it through its `jobKinds` (lib/subgraph.ts). The platform
 * keeps, claims, runs, cancels and presents jobs; the kind says what its input means.
 */
export interface JobKind {
  /** Stored in `query.jobs.kind`; the table's check constraint must accept it. */
  name: string;
  /**
   * Checks the input as the caller at submission (and at a rerun, with the stored input) and returns what is stored:
   * pinned to the dataset versions it resolved to now, so every attempt and a rerun read the same data. Throws the
   * errors the submission answers.
   */
  prepare(ctx: Caller, input: JobInput): Promise<JobInput>;
  execute: JobExecutor;
  /** The dataset versions a finished job's result was computed from: checked again before every download. */
  reads(job: Pick<JobRecord, 'input' | 'resultMeta'>): DataRead[];
  /**
   * The job as a caller may see it now, who may have lost access to its data since it ran (default: as stored).
   * Withholds, never throws for lost access.
   */
  present?(ctx: Caller, job: JobRecord): Promise<JobRecord>;
  /** Stops what an attempt whose worker stopped may have left running outside that process (queries on a server). */
  onAttemptLost?(job: RecoveredJob): Promise<void>;
}

/**
 * The kinds a process knows, by name: those of every subgraph its cluster serves, wherever that subgraph runs, so
 * that the jobs API can present, rerun and hand out any job. Each subgraph's kinds are built when first asked for.
 */
export class JobKinds {
  private readonly providers: (() => Promise<readonly JobKind[]>)[] = [];
  private byName: Promise<Map<string, JobKind>> | undefined;

  register(provider: () => Promise<readonly JobKind[]>): void {
    this.providers.push(provider);
    this.byName = undefined;
  }

  async get(name: string): Promise<JobKind | undefined> {
    this.byName ??= Promise.all(this.providers.map((p) => p())).then((lists) => new Map(lists.flat().map((k) => [k.name, k])));
    return (await this.byName).get(name);
  }
}

/** Said of a job whose kind's subgraph this cluster does not serve (SUBGRAPHS_DISABLED). */
export const notOffered = (kind: string) => `this cluster does not offer ${kind} jobs (SUBGRAPHS_DISABLED)`;
