import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GENERIC_SERVER_ERROR, UnsupportedMediaType, statusOfThrown } from '../lib/errors.js';
import { attachmentDisposition, type ObjectStore } from '../lib/objects/objects.js';
import { scriptSafeJson } from '../lib/script-safe-json.js';
import type { RunOperation } from './login-redirect.js';
import { sendCaughtError, sendError } from '../lib/error-reply.js';
import { sendGraphqlError } from './handler-replies.js';
import { ARROW_STREAM_MEDIA_TYPE } from '../lib/arrow-ipc.js';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

interface UploadTarget {
  dataset_id: string;
  upload_key: string;
  max_bytes: number;
}

type UploadProblem = { status?: number; error?: unknown; graphqlError?: unknown };

const ASSET_FIELDS = 'id filename kind media_type size sha256 rows created_at';

const ROWS_EXPORT = `query RowsExport($id: String!, $table: String!, $version: String, $neuron_ids: [String!], $names: [String!], $cell_class: [String!],
  $cell_type: [String!], $is_neuron: Boolean, $pre: [String!], $post: [String!], $synapse_type: String, $min_weight: Float, $roi: String, $group_by: String) {
  datasetRowsExport(dataset_id: $id, table: $table, version: $version, neuron_ids: $neuron_ids, names: $names, cell_class: $cell_class,
    cell_type: $cell_type, is_neuron: $is_neuron, pre: $pre, post: $post, synapse_type: $synapse_type, min_weight: $min_weight, roi: $roi, group_by: $group_by) {
    object_key rows size sha256 filename
  }
}`;

const SYNAPSES_EXPORT = `query SynapsesExport($id: String!, $version: String, $neuron: [String!], $pre: [String!], $post: [String!], $roi: String, $bbox: String,
  $unit: String, $min_confidence: Float, $min_cleft_score: Float, $min_connection_score: Float, $transmitter: [String!]) {
  datasetRowsExport: datasetSynapsesExport(dataset_id: $id, version: $version, neuron: $neuron, pre: $pre, post: $post, roi: $roi, bbox: $bbox, unit: $unit,
    min_confidence: $min_confidence, min_cleft_score: $min_cleft_score, min_connection_score: $min_connection_score, transmitter: $transmitter) {
    object_key rows size sha256 filename
  }
}`;

const NEURON_SEARCH_EXPORT = `query NeuronSearchExport($id: String!, $version: String, $criteria: NeuronCriteriaInput, $part: String) {
  datasetRowsExport: datasetNeuronSearchExport(dataset_id: $id, version: $version, criteria: $criteria, part: $part) { object_key rows size sha256 filename }
}`;

const ADJACENCY_FIELDS = ['version', 'sources', 'targets', 'rois', 'min_roi_weight', 'min_total_weight', 'transmitter', 'group_by_roi'] as const;
const ADJACENCY_EXPORT = `query AdjacencyExport($id: String!, $version: String, $sources: NeuronCriteriaInput, $targets: NeuronCriteriaInput, $rois: [String!],
  $min_roi_weight: Float, $min_total_weight: Float, $transmitter: [String!], $group_by_roi: Boolean) {
  datasetRowsExport: datasetAdjacencyExport(dataset_id: $id, version: $version, sources: $sources, targets: $targets, rois: $rois, min_roi_weight: $min_roi_weight,
    min_total_weight: $min_total_weight, transmitter: $transmitter, group_by_roi: $group_by_roi) { object_key rows size sha256 filename }
}`;

interface ArrowParameters {
  /** Repeated or comma-separated (the neurodata rules split, bound and name them). */
  lists: readonly string[];
  single: readonly string[];
  /** Single values that are numbers. */
  numbers: readonly string[];
  booleans: readonly string[];
}

/** The query parameters of each .arrow route. */
const ROWS_PARAMETERS: Record<'neurons' | 'connections' | 'synapses', ArrowParameters> = {
  neurons: { lists: ['neuron_ids', 'names', 'cell_class', 'cell_type'], single: ['version', 'is_neuron'], numbers: [], booleans: ['is_neuron'] },
  connections: { lists: ['neuron_ids', 'pre', 'post'], single: ['version', 'synapse_type', 'min_weight', 'roi', 'group_by'], numbers: ['min_weight'], booleans: [] },
  synapses: {
    lists: ['neuron', 'pre', 'post', 'transmitter'],
    single: ['version', 'roi', 'bbox', 'unit', 'min_confidence', 'min_cleft_score', 'min_connection_score'],
    numbers: ['min_confidence', 'min_cleft_score', 'min_connection_score'],
    booleans: [],
  },
};

/**
 * The dataset routes whose bodies are not JSON: streamed uploads, citations (BibTeX/RIS), JSON-LD and downloads.
 * Each runs the GraphQL operation that decides access and does the work; only the bytes pass through here.
 */
export function neurodataHandlers(run: RunOperation, objects: ObjectStore): Record<string, Handler> {
  return {
    datasetUpload: async (request, reply) => {
      const datasetId = (request.params as { dataset_id: string }).dataset_id;
      // The service issues each file's upload key (after checking the caller may change the dataset).
      const uploadTarget = () =>
        run(request, 'query UploadTarget($id: String!) { datasetUploadTarget(dataset_id: $id) { dataset_id upload_key max_bytes } }', { id: datasetId });
      const target = await uploadTarget();
      if (target.errors?.[0]) return drainThen(request, () => sendGraphqlError(request, reply, target.errors![0], 'upload target failed'));
      const t = (target.data as { datasetUploadTarget: UploadTarget }).datasetUploadTarget;
      // The limit is on the bytes stored: a compressed body's declared length says nothing about them, so it is
      // counted as it is decompressed (a small compressed body may expand past the limit).
      const tooLarge = `the upload exceeds the limit of ${t.max_bytes} bytes (UPLOAD_MAX_BYTES; a compressed upload counts its decompressed bytes)`;
      const declared = isCompressed(request) ? 0 : Number(request.headers['content-length'] ?? 0);
      if (declared > t.max_bytes) return drainThen(request, () => sendError(reply, 413, tooLarge));
      const items: unknown[] = [];
      const attach = async (file: { filename: string; mediaType: string; stream: Readable }, key: string): Promise<UploadProblem | null> => {
        try {
          await objects.putStream(key, file.stream, { contentType: file.mediaType, maxBytes: t.max_bytes, signal: request.abort.signal });
        } catch (e) {
          const status = statusOfThrown(e);
          return status === 413 ? { status, error: new Error(tooLarge) } : { status, error: e };
        }
        const res = await run(
          request,
          `mutation Attach($id: String!, $key: String!, $filename: String!, $media: String, $mapping: String) { attachDatasetAsset(dataset_id: $id, upload_key: $key, filename: $filename, media_type: $media, mapping: $mapping) { ${ASSET_FIELDS} } }`,
          { id: t.dataset_id, key, filename: file.filename, media: file.mediaType, mapping: mappingOf(request) },
        );
        if (res.errors?.[0]) return { graphqlError: res.errors[0] };
        items.push((res.data as { attachDatasetAsset: unknown }).attachDatasetAsset);
        return null;
      };
      if (request.isMultipart()) {
        const parts = request.files()[Symbol.asyncIterator]();
        for (;;) {
          // The parser throws when the body breaks between parts (truncated, no boundary): the client's fault.
          let next: IteratorResult<Awaited<ReturnType<typeof parts.next>>['value']>;
          try {
            next = await parts.next();
          } catch (e) {
            return answerProblem(request, reply, malformedMultipart(e));
          }
          if (next.done) break;
          const part = next.value;
          let key = t.upload_key;
          if (items.length) {
            const target = await uploadTarget();
            if (target.errors?.[0]) return sendGraphqlError(request, reply, target.errors[0], 'upload target failed');
            key = (target.data as { datasetUploadTarget: UploadTarget }).datasetUploadTarget.upload_key;
          }
          const problem = await attach({ filename: part.filename, mediaType: part.mimetype, stream: part.file }, key);
          // A part that breaks off inside its file (no closing boundary) leaves the parser's error on the file stream
          // (perhaps before we got the part) and fails the store's write with it.
          const malformed = part.file.errored;
          if (problem) return answerProblem(request, reply, malformed ? malformedMultipart(malformed) : problem);
        }
        if (!items.length) return sendError(reply, 400, 'multipart body without a file part: send the file in a part named file');
      } else {
        const filename = filenameOf(request);
        if (!filename) return drainThen(request, () => sendError(reply, 400, 'filename: give ?filename=<name> or a Content-Disposition header with a filename'));
        const mediaType = String(request.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim();
        const problem = await attach({ filename, mediaType, stream: request.body as Readable }, t.upload_key);
        if (problem) return answerProblem(request, reply, problem);
      }
      const list = await run(request, 'query Assets($id: String!) { datasetAssets(dataset_id: $id, version: "draft") { version } }', { id: t.dataset_id });
      const version = (list.data as { datasetAssets?: { version: number } } | null)?.datasetAssets?.version ?? 0;
      return reply.code(201).send({ dataset_id: t.dataset_id, version, items });
    },

    datasetAssetContent: async (request, reply) => {
      const { dataset_id, asset_id } = request.params as { dataset_id: string; asset_id: string };
      const version = (request.query as { version?: string }).version ?? null;
      const res = await run(
        request,
        'mutation Urls($input: DownloadUrlsInput!) { createDownloadUrls(input: $input) { urls { url } } }',
        { input: { dataset_id, version, asset_ids: [asset_id], expires_in: 300 } },
      );
      if (res.errors?.[0]) return sendGraphqlError(request, reply, res.errors[0], 'download url failed');
      const url = (res.data as { createDownloadUrls: { urls: Array<{ url: string }> } }).createDownloadUrls.urls[0].url;
      return reply.code(302).header('location', url).header('cache-control', 'no-store').send();
    },

    datasetCitation: async (request, reply) => {
      const { dataset_id } = request.params as { dataset_id: string };
      const q = request.query as { version?: string; format?: string };
      const res = await run(
        request,
        'query Citation($id: String!, $version: String, $format: String, $accept: String) { datasetCitation(dataset_id: $id, version: $version, format: $format, accept: $accept) { media_type filename text } }',
        { id: dataset_id, version: q.version ?? null, format: q.format ?? null, accept: request.headers.accept ?? null },
      );
      if (res.errors?.[0]) return sendGraphqlError(request, reply, res.errors[0], 'citation failed');
      const c = (res.data as { datasetCitation: { media_type: string; filename: string; text: string } }).datasetCitation;
      return reply.type(c.media_type).header('content-disposition', attachmentDisposition(c.filename).replace(/^attachment/, 'inline')).header('vary', 'Accept').send(c.text);
    },

    datasetJsonLd: async (request, reply) => {
      const { dataset_id } = request.params as { dataset_id: string };
      const q = request.query as { version?: string };
      const res = await run(request, 'query JsonLd($id: String!, $version: String) { datasetJsonLd(dataset_id: $id, version: $version) }', { id: dataset_id, version: q.version ?? null });
      if (res.errors?.[0]) return sendGraphqlError(request, reply, res.errors[0], 'json-ld failed');
      // Published JSON-LD is usually pasted into a page's <script type="application/ld+json">.
      return reply.type('application/ld+json; charset=utf-8').send(scriptSafeJson((res.data as { datasetJsonLd: unknown }).datasetJsonLd));
    },

    datasetNeuronsArrow: rowsArrow(run, objects, 'neurons'),
    datasetConnectionsArrow: rowsArrow(run, objects, 'connections'),
    datasetSynapsesArrow: rowsArrow(run, objects, 'synapses'),
    datasetNeuronSearchArrow: neuronSearchArrow(run, objects),
    datasetAdjacencyArrow: adjacencyArrow(run, objects),

    signedDownload: async (request, reply) => {
      const grant = String((request.query as { grant?: string }).grant ?? '');
      if (!grant) return sendError(reply, 400, 'grant: the signed part of a download URL is missing');
      // The neurodata subgraph checks the signature, the expiry and, as of now, the holder's access to the data.
      const res = await run(request, 'query OpenDownload($grant: String!) { openDownload(grant: $grant) { object_key filename } }', { grant });
      if (res.errors?.[0]) return sendGraphqlError(request, reply, res.errors[0], 'download grant failed');
      const opened = (res.data as { openDownload: { object_key: string; filename: string | null } }).openDownload;
      const head = await objects.head(opened.object_key);
      if (!head) return sendError(reply, 404, 'the file no longer exists');
      const range = parseRange(request.headers.range, head.size);
      if (range === 'invalid') return sendError(reply.header('content-range', `bytes */${head.size}`), 416, 'the requested range cannot be satisfied');
      const obj = await objects.getStream(opened.object_key, range ?? undefined);
      if (!obj) return sendError(reply, 404, 'the file no longer exists');
      reply
        .header('accept-ranges', 'bytes')
        .header('content-disposition', attachmentDisposition(opened.filename ?? 'download'))
        .header('cache-control', 'private, no-store')
        .type('application/octet-stream');
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${head.size}`).header('content-length', String(range.end - range.start + 1));
      else reply.header('content-length', String(head.size));
      return reply.send(obj.body);
    },
  };
}

/**
 * `GET .../neurons.arrow` and `.../connections.arrow`: every matching row as an Arrow IPC stream. The neurodata field
 * `datasetRowsExport` decides access, reads the rows batch by batch and writes the stream to object storage; it is
 * streamed from there and removed once sent (or once the client is gone).
 */
function rowsArrow(run: RunOperation, objects: ObjectStore, table: 'neurons' | 'connections' | 'synapses'): Handler {
  return async (request, reply) => {
    const { dataset_id } = request.params as { dataset_id: string };
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const query = new URLSearchParams(rawQuery);
    const variables: Record<string, unknown> = table === 'synapses' ? { id: dataset_id } : { id: dataset_id, table };
    const { lists, single, numbers, booleans } = ROWS_PARAMETERS[table];
    for (const name of lists) {
      const values = query.getAll(name);
      if (values.length) variables[name] = values;
    }
    for (const name of single) {
      const values = query.getAll(name);
      if (values.length > 1) return sendError(reply, 400, `${name}: give it once`);
      if (!values.length) continue;
      const value = values[0];
      if (booleans.includes(name)) {
        if (value !== 'true' && value !== 'false') return sendError(reply, 400, `${name}: true or false (got ${JSON.stringify(value)})`);
        variables[name] = value === 'true';
      } else if (numbers.includes(name)) {
        const n = value.trim() === '' ? Number.NaN : Number(value);
        if (!Number.isFinite(n)) return sendError(reply, 400, `${name}: a number (got ${JSON.stringify(value)})`);
        variables[name] = n;
      } else {
        variables[name] = value;
      }
    }
    return streamExport(request, reply, objects, await run(request, table === 'synapses' ? SYNAPSES_EXPORT : ROWS_EXPORT, variables), table);
  };
}

/**
 * `POST .../neurons/search.arrow`: every neuron the criteria of the JSON body match (or, with part=roi_counts, their
 * per-ROI counts), streamed as the other .arrow answers are.
 */
function neuronSearchArrow(run: RunOperation, objects: ObjectStore): Handler {
  return async (request, reply) => {
    const { dataset_id } = request.params as { dataset_id: string };
    const query = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
    const parts = query.getAll('part');
    if (parts.length > 1) return sendError(reply, 400, 'part: give it once');
    const body = exportBody(request, reply, ['version', 'criteria']);
    if (!body) return reply;
    const res = await run(request, NEURON_SEARCH_EXPORT, { id: dataset_id, version: body.version, criteria: body.criteria, part: parts[0] });
    return streamExport(request, reply, objects, res, 'neurons');
  };
}

/** `POST .../connectivity/adjacency.arrow`: every row of the adjacency the JSON body describes, streamed. */
function adjacencyArrow(run: RunOperation, objects: ObjectStore): Handler {
  return async (request, reply) => {
    const { dataset_id } = request.params as { dataset_id: string };
    const body = exportBody(request, reply, ADJACENCY_FIELDS);
    if (!body) return reply;
    const variables: Record<string, unknown> = { id: dataset_id };
    for (const name of ADJACENCY_FIELDS) if (body[name] !== undefined) variables[name] = body[name];
    return streamExport(request, reply, objects, await run(request, ADJACENCY_EXPORT, variables), 'adjacency');
  };
}

/**
 * The JSON body of a POST .arrow route, whose fields are `fields`; null once a 400 is sent. Through ?format=arrow on
 * its JSON route the body was checked as that route's, whose paging fields mean nothing for every row at once.
 */
function exportBody(request: FastifyRequest, reply: FastifyReply, fields: readonly string[]): Record<string, unknown> | null {
  const body = request.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    sendError(reply, 400, 'the JSON body must be an object');
    return null;
  }
  const allowed = request.routeOptions.url?.endsWith('.arrow') ? fields : [...fields, 'limit', 'after'];
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined) {
    sendError(reply, 400, `${unknown}: not a field of this body (it takes ${allowed.join(', ')})`, 'BAD_USER_INPUT');
    return null;
  }
  return body as Record<string, unknown>;
}

/** Streams the Arrow answer a `...Export` field stored, and removes it once the response is over. */
async function streamExport(request: FastifyRequest, reply: FastifyReply, objects: ObjectStore, res: Awaited<ReturnType<RunOperation>>, what: string): Promise<FastifyReply> {
  if (res.errors?.[0]) return sendGraphqlError(request, reply, res.errors[0], `${what} export failed`);
  const e = (res.data as { datasetRowsExport: { object_key: string; rows: number; size: number; sha256: string; filename: string } }).datasetRowsExport;
  const remove = () => void objects.delete(e.object_key).catch((err: unknown) => request.log.warn({ err, key: e.object_key }, 'could not remove a streamed Arrow answer'));
  const obj = await objects.getStream(e.object_key);
  if (!obj) {
    request.log.error({ key: e.object_key }, 'an Arrow answer vanished before it was streamed');
    return sendError(reply, 500, GENERIC_SERVER_ERROR);
  }
  // Removed once the response is over, sent whole or abandoned by the client.
  reply.raw.once('close', remove);
  return reply
    .type(ARROW_STREAM_MEDIA_TYPE)
    .header('content-length', String(e.size))
    .header('content-disposition', attachmentDisposition(e.filename))
    .header('x-checksum-sha256', e.sha256)
    .header('x-row-count', String(e.rows))
    .header('cache-control', 'private, no-store')
    .send(obj.body);
}

/** Lets the upload route take the raw body as a stream (and multipart parts as streams), whatever its type. */
export async function registerUploadParsers(scope: FastifyInstance): Promise<void> {
  // The multipart parser reads the request as it arrived, before the pipeline decompresses it: a compressed form
  // is refused before anything is read, rather than parsed as garbage.
  scope.addHook('preParsing', (request, _reply, payload, done) => {
    if (isCompressed(request) && /^multipart\//i.test(String(request.headers['content-type'] ?? ''))) {
      done(
        new UnsupportedMediaType(
          `Content-Encoding ${String(request.headers['content-encoding'])} is not accepted on a multipart upload: send the form uncompressed, or send each file as the raw body (?filename=) with its Content-Encoding`,
        ),
      );
      return;
    }
    done(null, payload);
  });
  const multipart = (await import('@fastify/multipart')).default;
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await scope.register(multipart, { limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1000, fields: 10 } });
}

/** True when the body arrives with a Content-Encoding the pipeline decompresses. */
function isCompressed(request: FastifyRequest): boolean {
  const encoding = request.headers['content-encoding'];
  return Boolean(encoding) && encoding !== 'identity';
}

function filenameOf(request: FastifyRequest): string | null {
  const q = (request.query as { filename?: string }).filename;
  if (q) return q;
  const cd = String(request.headers['content-disposition'] ?? '');
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(cd);
  return plain ? plain[1] : null;
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return 'invalid';
  let start: number;
  let end: number;
  if (!m[1]) {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** An answer sent before the body was read: read and drop the rest first, so the client sees the answer. */
async function drainThen(request: FastifyRequest, answer: () => FastifyReply): Promise<FastifyReply> {
  const body = request.body as Readable | undefined;
  if (body && typeof body.resume === 'function' && !request.isMultipart()) body.resume();
  return answer();
}

/** A multipart body the parser refused: 400 naming what broke, or the parser's own status (413 for too many parts). */
function malformedMultipart(error: unknown): UploadProblem {
  const status = (error as { statusCode?: number }).statusCode;
  if (status && status < 500) return { status, error };
  return { status: 400, error: new Error(`the multipart body is malformed (${(error as Error).message}): each part starts with the boundary line, and the body ends with --<boundary>--`) };
}

function answerProblem(request: FastifyRequest, reply: FastifyReply, problem: UploadProblem): FastifyReply {
  if (problem.graphqlError) return sendGraphqlError(request, reply, problem.graphqlError, 'attach failed');
  // The client reads that object storage failed; what the store said (a path, errno, the server's reply) is logged.
  if (problem.status === 503) request.log.error({ err: (problem.error as { cause?: unknown }).cause ?? problem.error }, 'upload failed: object storage is unavailable');
  return sendCaughtError(request, reply, problem.status ?? 500, problem.error, 'upload failed');
}

/** The column mapping of a synapse-level table, given as ?mapping=<JSON> (the service checks it). */
function mappingOf(request: { query: unknown }): string | null {
  const m = (request.query as { mapping?: unknown }).mapping;
  return typeof m === 'string' && m !== '' ? m : null;
}
