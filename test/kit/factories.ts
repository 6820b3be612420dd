import { newId } from '../../lib/ids.js';
import { call, createTestEngines, type TestApp, type TestEngines } from './app.js';
import { eventually } from './eventually.js';
import { startService, type ServiceProcess } from './processes.js';
import type { TestUser } from './users.js';

/**
 * Records a test seeds for itself through the public API, so tests in one file share an app without sharing state.
 * Users are in users.ts (`createUser`) and datasets in datasets.ts (`createTinyDataset`, `createTinyMorphology`).
 */

function expectCreated(res: { status: number; body: unknown }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

/** A vocabulary name nobody else in the run uses. */
export function uniqueVocabulary(prefix = 'test'): string {
  return `${prefix}_${randomPart()}`;
}

/** The random end of a new id (a UUID v7 begins with the time, which two calls in one millisecond share). */
function randomPart(): string {
  return newId().replace(/-/g, '').slice(-12);
}

export interface TestTerm {
  id: string;
  vocabulary: string;
  code: string;
  label: string;
  [field: string]: unknown;
}

/**
 * An ontology term created by a SuperUser over REST (`POST /v1/ontology/terms`), in a fresh vocabulary unless one is
 * given; `fields` are the route's body fields (`parent_id`, `synonyms`, ...).
 */
export async function createTerm(
  t: TestApp,
  superuser: TestUser,
  fields: { vocabulary?: string; code?: string; label?: string; [field: string]: unknown } = {},
): Promise<TestTerm> {
  const code = fields.code ?? `T:${randomPart()}`;
  const body = { ...fields, vocabulary: fields.vocabulary ?? uniqueVocabulary(), code, label: fields.label ?? `Term ${code}` };
  const res = await call(t.url, 'POST', '/v1/ontology/terms', { token: superuser.accessToken, body });
  expectCreated(res, 201, 'create term');
  return res.body as TestTerm;
}

export interface TestJob {
  job_id: string;
  status: string;
  [field: string]: unknown;
}

const FINISHED = ['succeeded', 'failed', 'cancelled'];

/** A job's current state (`GET /v1/jobs/{id}`) as `user` sees it. */
export async function readJob(t: TestApp, user: TestUser, jobId: string): Promise<TestJob> {
  const res = await call(t.url, 'GET', `/v1/jobs/${jobId}`, { token: user.accessToken });
  expectCreated(res, 200, `read job ${jobId}`);
  return res.body as TestJob;
}

/** Polls a job until `done` holds for it (by default: it finished, whatever the outcome) and returns it. */
export async function waitForJob(
  t: TestApp,
  user: TestUser,
  jobId: string,
  opts: { done?: (job: TestJob) => boolean; timeoutMs?: number } = {},
): Promise<TestJob> {
  const done = opts.done ?? ((j: TestJob) => FINISHED.includes(j.status));
  return eventually(
    async () => {
      const job = await readJob(t, user, jobId);
      if (!done(job)) throw new Error(`job is ${JSON.stringify(job)}`);
      return job;
    },
    { timeoutMs: opts.timeoutMs ?? 60_000, intervalMs: 50, what: `job ${jobId} reaching the expected state` },
  );
}

/**
 * A SyQL job submitted by `user` (`POST /v1/jobs` with `{query, parameters?}` or `{saved_query_id}`); with
 * `wait: true` it returns the job once finished.
 */
export async function createJob(
  t: TestApp,
  user: TestUser,
  body: { query?: string; parameters?: Record<string, unknown>; saved_query_id?: string },
  opts: { wait?: boolean; timeoutMs?: number } = {},
): Promise<TestJob> {
  const res = await call(t.url, 'POST', '/v1/jobs', { token: user.accessToken, body });
  expectCreated(res, 202, 'submit job');
  const job = res.body as TestJob;
  return opts.wait ? waitForJob(t, user, job.job_id, { timeoutMs: opts.timeoutMs }) : job;
}

export interface TestCluster {
  name: string;
  service: ServiceProcess;
  engines: TestEngines;
  /** A TestApp view of the process, for `call`, `gql` and the other factories. */
  app: TestApp;
  /** The SuperUser the cluster was started with, logged in. */
  superuser: TestUser;
  /** Stops the process and deletes its engines. */
  close(): Promise<void>;
}

/**
 * Another cluster, as an operator starts one (`npm start` in its own process, on its own engines), with a SuperUser
 * from SUPERUSER_EMAIL/SUPERUSER_PASSWORD already logged in: for federation between clusters.
 */
export async function createCluster(name: string, env: Record<string, string> = {}, opts: { timeoutMs?: number } = {}): Promise<TestCluster> {
  const engines = await createTestEngines();
  const admin = { email: `operator@${name}.example.org`, password: `an operator password for ${name}` };
  const service = await startService(
    engines,
    { LOG_LEVEL: 'warn', CLUSTER_NAME: name, SUPERUSER_EMAIL: admin.email, SUPERUSER_PASSWORD: admin.password, PASSWORD_CHECK_BURST: '100000', FEDERATION_PING_INTERVAL_SEC: '0', ...env },
    { timeoutMs: opts.timeoutMs ?? 180_000 },
  );
  try {
    const login = await call(service.url, 'POST', '/v1/user/auth/login', { body: admin });
    expectCreated(login, 200, `log in to ${name}`);
    const app = { url: service.url } as TestApp;
    const superuser: TestUser = { id: '', ...admin, accessToken: login.body.access_token, refreshToken: login.body.refresh_token };
    return {
      name,
      service,
      engines,
      app,
      superuser,
      async close() {
        await service.stop();
        await engines.drop();
      },
    };
  } catch (err) {
    await service.stop();
    await engines.drop();
    throw err;
  }
}
