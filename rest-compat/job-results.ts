import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachmentDisposition, type ObjectStore } from '../lib/objects/objects.js';
import type { RunOperation } from './login-redirect.js';
import { sendError } from '../lib/error-reply.js';
import { GENERIC_SERVER_ERROR } from '../lib/errors.js';
import { sendGraphqlError } from './handler-replies.js';
import { ARROW_STREAM_MEDIA_TYPE } from '../lib/jobs/job-result.js';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Reads back the grant of a URL the service has just signed: which object it names. */
export interface DownloadVerifier {
  verify(token: string, now: Date): { ok: true; grant: { key: string; filename?: string } } | { ok: false; reason: string };
}

const JOB_RESULT = 'query JobResult($id: String!) { jobResultDownload(job_id: $id) { url size sha256 rows media_type filename } }';

interface JobResultDownload {
  url: string;
  size: number;
  sha256: string;
  rows: number;
  media_type: string | null;
  filename: string | null;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * `GET /v1/jobs/{job_id}/result`: the result of a query job, streamed from object storage without being held in
 * memory. The GraphQL field `jobResultDownload` decides access (the caller owns the job, or is a SuperUser; the job
 * succeeded; the caller may still read every dataset the job read) and signs a short-lived download URL; its grant
 * names the object, read back here (the decision was made by this request's own operation). Where the object store signs URLs itself (S3) the URL carries no grant and the client is
 * sent there instead.
 *
 * Answers with the whole object or one byte range (206, Content-Range; 416 when unsatisfiable; `If-Range` honoured),
 * `ETag: "<sha256>"`, `Repr-Digest: sha-256=:<base64>:` and `X-Checksum-SHA256: <hex>` (the digest of the whole
 * result, whatever range is sent), and 304 to an `If-None-Match` that names it.
 */
export function jobResultHandler(run: RunOperation, objects: ObjectStore, downloads: DownloadVerifier): Handler {
  return async (request, reply) => {
    const jobId = (request.params as { job_id: string }).job_id;
    const res = await run(request, JOB_RESULT, { id: jobId });
    if (res.errors?.[0]) return sendGraphqlError(request, reply, res.errors[0], 'job result failed');
    const download = (res.data as { jobResultDownload?: JobResultDownload | null } | null)?.jobResultDownload;
    if (!download) return sendError(reply, 404, 'this job has no result');

    const url = new URL(download.url, 'http://localhost');
    const grant = url.searchParams.get('grant');
    if (!grant) {
      // A URL the object store signed (S3): the bytes come from there.
      return reply.code(302).header('location', download.url).header('cache-control', 'no-store').send();
    }
    const checked = downloads.verify(grant, new Date());
    if (!checked.ok) {
      // The service signed this URL a moment ago: a refusal means its secret differs from ours.
      request.log.error({ reason: checked.reason, jobId }, 'the signed URL of a job result did not verify');
      return sendError(reply, 500, GENERIC_SERVER_ERROR);
    }
    const key = checked.grant.key;
    const head = await objects.head(key);
    if (!head) return sendError(reply, 404, 'the result no longer exists');
    const size = head.size;
    const sha256 = String(download.sha256 ?? '').toLowerCase();
    const etag = SHA256_HEX.test(sha256) ? `"${sha256}"` : null;

    reply
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', attachmentDisposition(download.filename ?? checked.grant.filename ?? `job-${jobId}.arrows`));
    if (etag) {
      reply
        .header('etag', etag)
        .header('repr-digest', `sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:`)
        .header('x-checksum-sha256', sha256);
      if (matchesAny(request.headers['if-none-match'], etag)) return reply.code(304).send();
    }
    // A range of another version of the result (If-Range names an older ETag) would not fit: send it whole.
    const ifRange = request.headers['if-range'];
    const rangeHeader = ifRange === undefined || (etag && String(ifRange).trim() === etag) ? request.headers.range : undefined;
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      return sendError(reply.header('content-range', `bytes */${size}`), 416, 'the requested range cannot be satisfied');
    }
    const obj = await objects.getStream(key, range ?? undefined);
    if (!obj) return sendError(reply, 404, 'the result no longer exists');
    reply.type(download.media_type || ARROW_STREAM_MEDIA_TYPE);
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', String(range.end - range.start + 1));
    else reply.header('content-length', String(size));
    return reply.send(obj.body);
  };
}

/** Whether an If-None-Match header names `etag` (or is `*`); weak comparison, as RFC 9110 asks for it. */
function matchesAny(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * One byte range of a `Range: bytes=...` header (RFC 9110, 14.1.2): null for the whole object, when no header was
 * sent or it cannot be used (another unit, several ranges, malformed: a server may then ignore it); unsatisfiable
 * when it starts at or beyond the end.
 */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return null;
  if (!m[1]) {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] ? Math.min(Number(m[2]), size - 1) : size - 1 };
}
