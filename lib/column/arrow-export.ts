import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Message, MessageHeader } from 'apache-arrow';
import type { ColumnLane, ColumnStore, EngineLimits } from './column.js';
import { ch, quoteString, type ChQuery } from './sql.js';
import type { ObjectStore } from '../objects/objects.js';
import { abortError, currentRequestScope } from '../request-scope.js';
import { runTask } from '../workers/pool.js';
import {
  END_OF_STREAM,
  checkBatch,
  encodeSchemaMessage,
  encodeTsvBatch,
  needsReencoding,
  planConversions,
  reencodeBatch,
  type ArrowColumn,
  type Conversion,
  type TsvBatchInput,
} from './arrow.task.js';

import { ARROW_STREAM_MEDIA_TYPE } from '../arrow-ipc.js';

export { ARROW_STREAM_MEDIA_TYPE };

export const ARROW_TASK = new URL('./arrow.task.ts', import.meta.url);

export interface ExportDeps {
  column: ColumnStore;
  objects: ObjectStore;
}

export interface ExportOptions {
  /** Stops the query and the upload; nothing is left under the key. Defaults to the current request's signal. */
  signal?: AbortSignal;
  /** Rows written so far, after each record batch. */
  onRows?: (rows: number) => void;
  /** Name of the query (a comment in its SQL, and its query id on a server); default `QueryResults.exportArrow`. */
  name?: string;
  /** The id the engine runs the query under (default a new one), so that a later attempt can stop a stray one. */
  queryId?: string;
  /** ClickHouse's max_execution_time for the query, in seconds (default 1800: a job is bounded by its signal). */
  maxExecutionTime?: number;
  /** The engine's limits on the query (memory, rows read, result rows, threads). */
  limits?: EngineLimits;
}

export interface ExportResult {
  /** Size of the stored object. */
  bytes: number;
  rows: number;
  /** SHA-256 of the stored bytes, lower-case hex. */
  sha256: string;
}

/** Rows per record batch on a server (chDB's own batches are its blocks, about 65k rows). */
const BATCH_ROWS = 65_536;
/** A batch this small is encoded on the calling thread (about a millisecond), not on the worker pool. */
const INLINE_BATCH_ROWS = 1024;
const INLINE_BATCH_CHARS = 256 * 1024;
/** A batch of wide rows is cut earlier, so that one batch's text stays small. */
const BATCH_CHARS = 16 * 1024 * 1024;
/** Batches being encoded on the worker pool at once (their order is kept). */
const BATCHES_IN_FLIGHT = Math.max(2, Math.min(4, os.availableParallelism() - 1) + 1);
/** Bytes buffered between the producer and the object store before the producer waits. */
const PIPE_BYTES = 8 * 1024 * 1024;
/** Reads of chDB's output file, into slabs of SLAB_BYTES. */
const READ_BYTES = 4 * 1024 * 1024;
const SLAB_BYTES = 16 * 1024 * 1024;
/** How often the output file is looked at again while chDB is still writing it. */
const POLL_MS = 3;
const DEFAULT_MAX_EXECUTION_S = 1800;
/** The field the server's rows end in (encodeTsvBatch). */
const ROW_END = '_arrow_export_row_end';

/**
 * Runs `q` and stores its whole result under `key` as an Arrow IPC stream: the schema (fields named and typed as
 * `columns` declare: Utf8, Int64, Float64, Bool, with the declared nullability; `metadata` as its custom metadata),
 * record batches, the end-of-stream marker. The same schema on both engines.
 *
 * On chDB the engine writes the result as Arrow itself, into a file beside its data (`INTO OUTFILE ... FORMAT
 * ArrowStream`), which is read as it grows: the schema message is replaced by ours and the batches are copied as
 * they are, or re-encoded where ClickHouse's layout differs from the declared type (UInt8 for a boolean, say), one
 * batch at a time. On a ClickHouse server (18.16 has no Arrow formats) the result streams as TabSeparated and
 * batches of 65,536 rows are encoded on the worker pool (arrow.task.ts), in order.
 *
 * Memory stays bounded by a few batches whatever the row count. An abort or a failure stops the query and leaves
 * nothing under the key (ObjectStore.putStream is whole or nothing).
 */
export async function exportArrow(
  deps: ExportDeps,
  q: ChQuery,
  columns: ArrowColumn[],
  key: string,
  metadata: Record<string, string>,
  opts: ExportOptions = {},
): Promise<ExportResult> {
  const signal = opts.signal ?? currentRequestScope()?.signal;
  if (signal?.aborted) throw abortError(signal);
  const schema = encodeSchemaMessage(columns, metadata);
  const name = (opts.name ?? 'QueryResults.exportArrow').replace(/[^A-Za-z0-9_.-]/g, '_');
  const out = new Output(signal);
  const put = deps.objects.putStream(key, out.stream, { contentType: ARROW_STREAM_MEDIA_TYPE, signal });
  // The store stops reading when it fails (S3 down, say): the producer must stop too rather than wait for room.
  put.catch((e: unknown) => out.fail(e));
  const query: QueryContext = {
    name,
    signal,
    // An export is long and read by nobody waiting in a request: it never holds up interactive statements.
    lane: 'background',
    maxExecutionTime: opts.maxExecutionTime ?? DEFAULT_MAX_EXECUTION_S,
    queryId: opts.queryId ?? `arrow-export-${randomUUID()}`,
    limits: opts.limits,
  };
  let rows = 0;
  const written = (n: number) => {
    rows += n;
    opts.onRows?.(rows);
  };
  try {
    if (deps.column.kind === 'chdb') await fromChdb(deps.column, q, columns, schema, out, written, query);
    else await fromServer(deps.column, q, columns, schema, out, written, query);
    await out.write(END_OF_STREAM);
    out.end();
  } catch (e) {
    const reason = signal?.aborted ? abortError(signal) : e;
    out.fail(reason);
    await put.catch(() => undefined);
    throw reason;
  }
  const stored = await put;
  return { bytes: stored.size, rows, sha256: stored.sha256 };
}

interface QueryContext {
  name: string;
  signal?: AbortSignal;
  lane: ColumnLane;
  maxExecutionTime: number;
  /** The id the engine runs the query under, by which an abort stops it (ColumnStore.kill). */
  queryId: string;
  limits?: EngineLimits;
}

/** The producer's side of the pipe into the object store: writes wait while the store is behind. */
class Output {
  readonly stream = new PassThrough({ highWaterMark: PIPE_BYTES });
  private failure: unknown;
  constructor(private readonly signal: AbortSignal | undefined) {
    // putStream watches the stream; this only keeps an error the store already reported from being unhandled.
    this.stream.on('error', () => {});
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.check();
    if (this.stream.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: unknown) => {
        this.stream.off('drain', onDrain);
        this.stream.off('close', onClose);
        this.signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const onDrain = () => done();
      const onClose = () => done(this.failure ?? new Error('the object store stopped reading the result'));
      const onAbort = () => done(abortError(this.signal!));
      this.stream.on('drain', onDrain);
      this.stream.on('close', onClose);
      this.signal?.addEventListener('abort', onAbort, { once: true });
    });
    this.check();
  }

  end(): void {
    this.stream.end();
  }

  fail(e: unknown): void {
    this.failure ??= e;
    if (!this.stream.destroyed) this.stream.destroy(e instanceof Error ? e : new Error(String(e)));
  }

  check(): void {
    if (this.signal?.aborted) throw abortError(this.signal);
    if (this.failure !== undefined) throw this.failure;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// chDB: ClickHouse writes Arrow; we replace the schema and copy the batches.

/**
 * Settings of the chDB query's Arrow output: uncompressed bodies (not every reader decompresses), Utf8 rather than
 * Binary strings, plain columns rather than dictionaries for LowCardinality. (Large string offsets would be converted.)
 */
const CHDB_ARROW_SETTINGS = [
  "output_format_arrow_compression_method = 'none'",
  'output_format_arrow_string_as_string = 1',
  'output_format_arrow_low_cardinality_as_dictionary = 0',
  'output_format_arrow_fixed_string_as_fixed_byte_array = 0',
].join(', ');

async function fromChdb(
  column: ColumnStore,
  q: ChQuery,
  columns: ArrowColumn[],
  schema: Uint8Array,
  out: Output,
  written: (rows: number) => void,
  ctx: QueryContext,
): Promise<void> {
  const file = path.join(await spoolDir(column), `${randomUUID()}.arrows`);
  const state: QueryState = { done: false, error: undefined, settled: Promise.resolve() };
  // The compiled query stays whole inside the subquery (newlines: it may end in a comment); the settings are the
  // outer SELECT's, and the column store adds max_execution_time after FORMAT.
  const sql = `SELECT * FROM (\n${q.sql}\n) SETTINGS ${CHDB_ARROW_SETTINGS} INTO OUTFILE ${quoteString(file)} FORMAT ArrowStream`;
  // The statement gets a signal that never aborts: it settles only when the engine has stopped writing the file,
  // which an abort or a failure below stops by its query id and then waits for.
  state.settled = column.command({ sql, params: q.params }, { ...ctx, signal: new AbortController().signal }).then(
    () => {
      state.done = true;
    },
    (e: unknown) => {
      state.done = true;
      state.error = e;
    },
  );
  const input = new ByteQueue(tailFile(file, state, ctx.signal));
  let complete = false;
  try {
    await copyMessages(input, columns, schema, out, written);
    // The end-of-stream marker is written before the query ends: only its success makes the result whole.
    await state.settled;
    if (state.error !== undefined) throw state.error;
    complete = true;
  } finally {
    await input.close();
    await rm(file, { force: true });
    // Stopped early: the engine may still be writing the file. chDB's kill is asynchronous, and one sent before the
    // engine lists the statement finds nothing: it is sent again until the statement has ended.
    if (!complete) {
      void (async () => {
        for (let i = 0; i < STOP_ATTEMPTS && !state.done; i++) {
          await stopQuery(column, ctx);
          await Promise.race([state.settled, sleep(STOP_RETRY_MS)]);
        }
      })().finally(() => rm(file, { force: true }).catch(() => undefined));
    }
  }
}

/** Kills sent to an export stopped early until its statement ends, STOP_RETRY_MS apart. */
const STOP_ATTEMPTS = 50;
const STOP_RETRY_MS = 100;

/** Stops the export's query, if it still runs (on a server: and waits until it has). */
async function stopQuery(column: ColumnStore, ctx: QueryContext): Promise<void> {
  try {
    await column.kill(ctx.queryId);
  } catch {
    // The store is closed or gone: nothing runs any more.
  }
}

/** Reads ClickHouse's Arrow stream and writes ours: our schema, its batches (re-encoded where needed), no EOS. */
async function copyMessages(input: ByteQueue, columns: ArrowColumn[], schema: Uint8Array, out: Output, written: (rows: number) => void): Promise<void> {
  let conversions: Conversion[] | null = null;
  let reencode = false;
  let nativeSchema: Buffer | null = null;
  for (;;) {
    if (!(await input.fill(8))) throw new Error('the Arrow result ended without its end-of-stream marker');
    const prefix = input.take(8);
    const view = new DataView(prefix.buffer, prefix.byteOffset, 8);
    if (view.getUint32(0, true) !== 0xffffffff) throw new Error('the Arrow result is not in the IPC stream format (no continuation marker)');
    const metaLength = view.getInt32(4, true);
    if (metaLength === 0) break;
    if (metaLength < 0 || !(await input.fill(metaLength))) throw new Error('the Arrow result ends inside a message');
    const metadata = input.take(metaLength);
    // The message's metadata (a FlatBuffer), decoded by apache-arrow.
    const message = Message.decode(metadata);
    if (message.isSchema()) {
      if (conversions) throw new Error('the Arrow result has a second schema');
      conversions = planConversions(columns, message.header().fields);
      reencode = needsReencoding(conversions);
      nativeSchema = Buffer.concat([prefix, metadata]);
      await out.write(schema);
      if (message.bodyLength) await input.skip(message.bodyLength);
      continue;
    }
    if (!conversions || !nativeSchema) throw new Error('the Arrow result starts without its schema');
    if (!message.isRecordBatch()) {
      throw new Error(message.isDictionaryBatch() ? 'the Arrow result has dictionary batches' : `unexpected Arrow message (${MessageHeader[message.headerType]})`);
    }
    const batch = message.header();
    checkBatch(batch, message.bodyLength, columns, conversions);
    if (reencode) {
      if (!(await input.fill(message.bodyLength))) throw new Error('the Arrow result ends inside a record batch');
      await out.write(reencodeBatch(nativeSchema, Buffer.concat([prefix, metadata]), input.take(message.bodyLength), columns, conversions));
    } else {
      // The layout is the declared one: the message is copied as it is, its body piece by piece.
      await out.write(Buffer.concat([prefix, metadata]));
      for await (const piece of input.pieces(message.bodyLength)) await out.write(piece);
    }
    written(batch.length);
  }
  if (!conversions) throw new Error('the Arrow result has no schema');
}

interface QueryState {
  done: boolean;
  error: unknown;
  settled: Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The bytes of `file` as chDB writes them, until the query has ended and all of it has been read. */
async function* tailFile(file: string, state: QueryState, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  const check = () => {
    if (signal?.aborted) throw abortError(signal);
    if (state.error !== undefined) throw state.error;
  };
  let handle: FileHandle | null = null;
  while (!handle) {
    check();
    const ended = state.done;
    handle = await open(file, 'r').catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
      return null;
    });
    if (handle) break;
    if (ended) {
      check();
      throw new Error('chDB wrote no result file');
    }
    await Promise.race([state.settled, sleep(POLL_MS)]);
  }
  try {
    let position = 0;
    // Reads land one after the other in a slab, so the pieces need no copy and the collector sees few buffers; a
    // slab is let go once the pieces cut from it have been written.
    let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    let used = 0;
    for (;;) {
      check();
      if (SLAB_BYTES - used < READ_BYTES) {
        slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
        used = 0;
      }
      // Once the query has ended before a read, that read sees the whole file: nothing read then means the end.
      const ended = state.done;
      const { bytesRead } = await handle.read(slab, used, READ_BYTES, position);
      if (bytesRead > 0) {
        position += bytesRead;
        const piece = slab.subarray(used, used + bytesRead);
        used += Math.ceil(bytesRead / 8) * 8;
        yield piece;
        continue;
      }
      if (ended) return;
      await Promise.race([state.settled, sleep(POLL_MS)]);
    }
  } finally {
    await handle.close();
  }
}

/** Byte chunks from a source, taken a message at a time. */
class ByteQueue {
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private readonly source: AsyncIterator<Buffer>;
  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** Waits until `n` bytes are at hand; false when the source ends first. */
  async fill(n: number): Promise<boolean> {
    while (this.length < n) {
      const next = await this.source.next();
      if (next.done) return false;
      this.chunks.push(next.value);
      this.length += next.value.length;
    }
    return true;
  }

  /** The next `n` bytes (at hand: fill first), in one piece. */
  take(n: number): Buffer {
    const first = this.chunks[0];
    if (first && first.length >= n) return this.consume(n);
    const parts: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const part = this.consume(Math.min(left, this.chunks[0].length));
      parts.push(part);
      left -= part.length;
    }
    return Buffer.concat(parts, n);
  }

  /** The next `n` bytes in pieces as they arrive. */
  async *pieces(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (!(await this.fill(1))) throw new Error('the Arrow result ends inside a record batch');
      const piece = this.consume(Math.min(left, this.chunks[0].length));
      left -= piece.length;
      yield piece;
    }
  }

  /** Stops reading the source (which closes what it reads). */
  async close(): Promise<void> {
    this.chunks.length = 0;
    this.length = 0;
    await this.source.return?.();
  }

  async skip(n: number): Promise<void> {
    for await (const _ of this.pieces(n));
  }

  private consume(n: number): Buffer {
    const first = this.chunks[0];
    const piece = first.subarray(0, n);
    if (n === first.length) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.length -= n;
    return piece;
  }
}

const spoolDirs = new WeakMap<ColumnStore, Promise<string>>();
const swept = new Set<string>();
const PROCESS_START = Date.now() - process.uptime() * 1000;

/**
 * The directory beside chDB's data where results are written before they are copied: the engine's own disk, which
 * has room for its data. Files an earlier process left there (it stopped mid-export) are removed on first use.
 */
function spoolDir(column: ColumnStore): Promise<string> {
  let dir = spoolDirs.get(column);
  if (!dir) {
    dir = (async () => {
      const [disk] = await column.query<{ path: string }>(ch`SELECT path FROM system.disks WHERE name = 'default'`, { name: 'QueryResults.spoolDir' });
      if (!disk?.path) throw new Error("chDB reports no path for its default disk");
      const spool = path.join(disk.path, 'arrow-export-spool');
      await mkdir(spool, { recursive: true });
      if (!swept.has(spool)) {
        swept.add(spool);
        for (const entry of await readdir(spool)) {
          const file = path.join(spool, entry);
          const info = await stat(file).catch(() => null);
          if (info && info.mtimeMs < PROCESS_START) await rm(file, { force: true });
        }
      }
      return spool;
    })();
    dir.catch(() => spoolDirs.delete(column));
    spoolDirs.set(column, dir);
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------------------------
// A ClickHouse server: TabSeparated text, encoded as record batches on the worker pool.

async function fromServer(
  column: ColumnStore,
  q: ChQuery,
  columns: ArrowColumn[],
  schema: Uint8Array,
  out: Output,
  written: (rows: number) => void,
  ctx: QueryContext,
): Promise<void> {
  await out.write(schema);
  const inFlight: { rows: number; message: Promise<Uint8Array> }[] = [];
  const writeOldest = async () => {
    const batch = inFlight.shift()!;
    await out.write(await batch.message);
    written(batch.rows);
  };
  let parts: string[] = [];
  let rows = 0;
  let chars = 0;
  let complete = false;
  const flush = async () => {
    if (rows === 0) return;
    const input: TsvBatchInput = { text: parts.join(''), columns, terminated: true };
    // A small batch (a small result, or the last rows of a large one) costs less to encode here than to hand to the
    // pool, where it would wait behind whatever fills it (whole graph analyses of other users).
    const message =
      rows <= INLINE_BATCH_ROWS && chars <= INLINE_BATCH_CHARS
        ? (async () => encodeTsvBatch(input.text, columns, true).message)()
        : runTask<Uint8Array>(ARROW_TASK, 'tsvToRecordBatch', input, { signal: ctx.signal });
    // Awaited in order below; a failure meanwhile must not count as unhandled.
    message.catch(() => undefined);
    inFlight.push({ rows, message });
    parts = [];
    rows = 0;
    chars = 0;
    if (inFlight.length >= BATCHES_IN_FLIGHT) await writeOldest();
  };
  // Every row ends in a field of its own: the server's error, when it fails mid-result, is then told from a row.
  const terminated: ChQuery = { sql: `SELECT *, 1 AS ${ROW_END} FROM (\n${q.sql}\n)`, params: q.params };
  try {
    for await (const chunk of column.queryTsv(terminated, ctx)) {
      out.check();
      let start = 0;
      while (start < chunk.length) {
        let end = start;
        while (rows < BATCH_ROWS) {
          const nl = chunk.indexOf('\n', end);
          if (nl < 0) {
            end = chunk.length;
            break;
          }
          rows++;
          end = nl + 1;
        }
        if (end > start) {
          parts.push(start === 0 && end === chunk.length ? chunk : chunk.slice(start, end));
          chars += end - start;
        }
        start = end;
        // Chunks hold whole lines, so a batch cut here ends at the end of a line.
        if (rows >= BATCH_ROWS || (chars >= BATCH_CHARS && chunk[end - 1] === '\n')) await flush();
      }
    }
    await flush();
    while (inFlight.length) await writeOldest();
    complete = true;
  } finally {
    inFlight.length = 0;
    // Leaving the loop drops the HTTP response, which an old server notices only when it next writes.
    if (!complete) void stopQuery(column, ctx);
  }
}
