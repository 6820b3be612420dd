import type { FastifyReply, FastifyRequest } from 'fastify';
import { bytes, count, dateTime } from '../format.js';
import { postForm } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { sendError } from '../../lib/error-reply.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import type { JobStatus, JobsPageResult } from '../operations.types.js';

const JOBS_PATH = '/jobs';
const PAGE_SIZE = 20;

type Jobs = JobsPageResult['jobs'];
/** A job as the list and the status operation both ask for it (the same fields). */
type Job = Jobs['items'][number];

const STATUS_LABEL: Record<JobStatus, string> = { queued: 'Queued', running: 'Running', succeeded: 'Done', failed: 'Failed', cancelled: 'Cancelled' };
const KIND_LABEL: Record<string, string> = { syql: 'SyQL export', graph: 'Graph analysis' };
const isLive = (status: JobStatus) => status === 'queued' || status === 'running';
const shortId = (id: string) => id.slice(-8);
const resultPath = (id: string) => `${JOBS_PATH}/${encodeURIComponent(id)}/result.arrow`;
const percent = (progress: number) => Math.round(Math.max(0, Math.min(1, progress)) * 100);

/** What the page's script reads while a job runs (GET /jobs/{id}/status.json). */
export interface JobStatusJson {
  job_id: string;
  status: JobStatus;
  status_label: string;
  percent: number;
  message: string;
  download_url: string | null;
  result: string | null;
}

/** The line under a job's progress bar: what it does or did, or why it failed. */
function messageOf(job: Job): string {
  if (job.status === 'failed') return job.error ? `Failed: ${job.error}` : 'Failed';
  if (job.status === 'cancelled') return 'Cancelled: nothing of its result is kept.';
  if (job.status === 'queued') return job.progress_message ?? 'Waiting for a worker.';
  return job.progress_message ?? (job.status === 'succeeded' ? 'Finished.' : 'Started.');
}

const resultOf = (job: Job): string | null =>
  job.status === 'succeeded' && job.result_rows !== null ? `${count(job.result_rows)} ${job.result_rows === 1 ? 'row' : 'rows'}${job.result_bytes !== null ? `, ${bytes(job.result_bytes)}` : ''}` : null;

export function jobStatusJson(job: Job): JobStatusJson {
  return {
    job_id: job.job_id,
    status: job.status,
    status_label: STATUS_LABEL[job.status] ?? job.status,
    percent: percent(job.status === 'succeeded' ? 1 : job.progress),
    message: messageOf(job),
    download_url: job.status === 'succeeded' ? resultPath(job.job_id) : null,
    result: resultOf(job),
  };
}

/**
 * `/jobs`: the signed-in account's jobs (the `jobs` query, which needs an Academic account) with their status,
 * progress and message; a running job's progress is followed by jobs.js through `/jobs/{id}/status.json`. Cancel
 * (`deleteJob`) stops a queued or running job, Delete removes a finished one with its result, and a finished job's
 * Arrow result downloads from `/jobs/{id}/result.arrow`, answered by the REST layer's job-result handler, which
 * decides access as `GET /v1/jobs/{job_id}/result` does.
 */
export const jobsPage: WebPage = {
  nav: [{ href: JOBS_PATH, label: 'My jobs', signedIn: true }],
  routes(scope, kit) {
    scope.get(JOBS_PATH, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const page = Math.max(1, Math.min(500, Number.parseInt(String((request.query as { page?: string }).page ?? '1'), 10) || 1));
      const result = await kit.run(request, 'jobsPage', { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
      const error = result.errors?.[0];
      if (error?.extensions?.code === 'FORBIDDEN') return renderNotAcademic(kit, request, reply, error.message);
      if (error) return kit.operationFailed(request, reply, error, 'jobs page failed');
      const jobs = result.data!.jobs;
      // A page past the end (an old link, an edited URL) shows the last page, under that page's own URL.
      const last = Math.max(1, Math.ceil(jobs.total / PAGE_SIZE));
      if (page > last) return reply.redirect(last > 1 ? `${JOBS_PATH}?page=${last}` : JOBS_PATH, 302);
      return renderJobs(kit, request, reply, jobs, page);
    });

    // Read by jobs.js while a job runs: JSON, never cached, for this session only.
    scope.get(`${JOBS_PATH}/:job_id/status.json`, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!stateOf(request).session.accessToken) return sendError(reply, 401, 'sign in to follow your jobs');
      const result = await kit.run(request, 'jobStatus', { job_id: (request.params as { job_id: string }).job_id });
      const error = result.errors?.[0];
      if (error) {
        const { status, message } = errorOf(request, error, 'job status failed');
        return sendError(reply, status, message, error.extensions?.code as string | undefined);
      }
      return reply.send(jobStatusJson(result.data!.job!));
    });

    scope.post(`${JOBS_PATH}/:job_id/cancel`, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const id = (request.params as { job_id: string }).job_id;
      const result = await kit.run(request, 'deleteJob', { job_id: id });
      const error = result.errors?.[0];
      if (error) return kit.redirectWithFlash(reply, JOBS_PATH, { kind: 'alert', message: `Job ${shortId(id)} was not changed: ${errorOf(request, error, 'job cancel failed').message}` });
      const { action } = result.data!.deleteJob;
      return kit.redirectWithFlash(reply, JOBS_PATH, {
        kind: 'status',
        message: action === 'cancelled' ? `Job ${shortId(id)} is cancelled.` : `Job ${shortId(id)} and its result are deleted.`,
      });
    });

    scope.get(`${JOBS_PATH}/:job_id/result.arrow`, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const handler = kit.restHandler('jobResult');
      if (!handler) return reply.callNotFound();
      // A page first, for what a person can act on (no such job, not finished); the handler decides access again.
      const result = await kit.run(request, 'jobStatus', { job_id: (request.params as { job_id: string }).job_id });
      const error = result.errors?.[0];
      if (error) return kit.operationFailed(request, reply, error, 'job result failed');
      const job = result.data!.job!;
      if (job.status !== 'succeeded') {
        return kit.render(
          request,
          reply,
          { title: 'No result yet', body: html`<h1>This job has no result</h1><p>Job ${shortId(job.job_id)} is ${STATUS_LABEL[job.status].toLowerCase()}: only a finished job has a result.</p><p><a href="${JOBS_PATH}">Back to your jobs</a></p>` },
          409,
        );
      }
      return handler(request, reply);
    });
  },
};

function renderNotAcademic(kit: WebKit, request: FastifyRequest, reply: FastifyReply, why: string): FastifyReply {
  const body = html`<h1>Your jobs</h1>
<p>Jobs (SyQL exports and graph analyses) need an Academic account, and yours is not one yet.</p>
<p class="hint">${why}</p>
<p><a href="/account">See how to verify your account</a></p>`;
  return kit.render(request, reply, { title: 'Your jobs', body }, 403);
}

function renderJobs(kit: WebKit, request: FastifyRequest, reply: FastifyReply, jobs: Jobs, page: number): FastifyReply {
  const pages = Math.max(1, Math.ceil(jobs.total / PAGE_SIZE));
  const body = html`<h1>Your jobs</h1>
<p>SyQL exports and graph analyses you submitted through the API (<code>POST /v1/jobs</code>, <code>POST /v1/jobs/graph</code>), newest first. Results are Apache Arrow streams.</p>
<p class="visually-hidden" aria-live="polite" id="jobs-announcer"></p>
${
  jobs.items.length
    ? html`<ul class="job-list">${jobs.items.map((job) => jobItem(request, job))}</ul>`
    : html`<p>You have no jobs${page > 1 ? ' on this page' : ' yet'}.</p>`
}
${
  pages > 1
    ? html`<nav class="pager" aria-label="Job pages">
  ${page > 1 ? html`<a href="${JOBS_PATH}?page=${page - 1}" rel="prev">Previous page</a>` : ''}
  <span>Page ${page} of ${pages}</span>
  ${page < pages ? html`<a href="${JOBS_PATH}?page=${page + 1}" rel="next">Next page</a>` : ''}
</nav>`
    : ''
}`;
  return kit.render(request, reply, { title: 'Your jobs', body, scripts: ['jobs.js', 'confirm.js'] });
}

function jobItem(request: FastifyRequest, job: Job): SafeHtml {
  const { csrf } = stateOf(request);
  const s = jobStatusJson(job);
  const name = `${KIND_LABEL[job.kind] ?? job.kind} ${shortId(job.job_id)}`;
  const query = typeof job.input.query === 'string' ? job.input.query : null;
  // A graph job keeps its dataset's slug beside the id; jobs submitted before it was kept have the id only.
  const dataset = typeof job.input.slug === 'string' ? job.input.slug : typeof job.input.dataset_id === 'string' ? job.input.dataset_id : null;
  const titleId = `job-${job.job_id}-title`;
  return html`<li class="job" data-job="${job.job_id}" data-status="${job.status}">
  <h2 class="job-title" id="${titleId}">${name}</h2>
  <p class="job-state"><span class="badge" data-field="status">${s.status_label}</span> <span data-field="message">${s.message}</span></p>
  <div class="progress-row">
    <progress max="100" value="${s.percent}" data-field="progress" aria-labelledby="${titleId}">${s.percent}%</progress>
    <span data-field="percent">${s.percent}%</span>
  </div>
  <dl class="details job-facts">
    <dt>Submitted</dt><dd>${dateTime(job.created_at)}</dd>
    ${job.finished_at ? html`<dt>Finished</dt><dd>${dateTime(job.finished_at)}</dd>` : ''}
    ${query ? html`<dt>Query</dt><dd><code>${query}</code></dd>` : ''}
    ${dataset ? html`<dt>Dataset</dt><dd><code>${dataset}</code></dd>` : ''}
    <dt>Result</dt><dd data-field="result">${s.result ?? (isLive(job.status) ? 'when it is done' : 'none')}</dd>
  </dl>
  <div class="job-actions">
    <a class="button" href="${resultPath(job.job_id)}" data-field="download"${s.download_url ? '' : html` hidden`}>Download result<span class="visually-hidden"> of ${name}</span> (Arrow)</a>
    ${
      isLive(job.status)
        ? postForm(
            `${JOBS_PATH}/${encodeURIComponent(job.job_id)}/cancel`,
            csrf,
            html`<button type="submit" class="button button-danger">Cancel<span class="visually-hidden"> ${name}</span></button>`,
            html` class="inline-form" data-field="cancel"`,
          )
        : postForm(
            `${JOBS_PATH}/${encodeURIComponent(job.job_id)}/cancel`,
            csrf,
            html`<button type="submit" class="button button-secondary">Delete<span class="visually-hidden"> ${name}</span></button>`,
            html` class="inline-form" data-confirm="${`Delete ${name}${job.status === 'succeeded' ? ' and its result' : ''}?`}"`,
          )
    }
  </div>
</li>`;
}
