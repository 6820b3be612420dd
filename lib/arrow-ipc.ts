import { RecordBatch, RecordBatchStreamWriter, Schema, Struct, makeData, type Data } from 'apache-arrow';

/**
 * Pieces of an Apache Arrow IPC stream written one at a time, so a stream of any length is produced batch by batch:
 * the Schema message, RecordBatch messages, the end-of-stream marker.
 */

/** The media type of an Arrow IPC stream. */
export const ARROW_STREAM_MEDIA_TYPE = 'application/vnd.apache.arrow.stream';

/** A stream ends with a continuation marker and a zero length. */
export const END_OF_STREAM = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/** The stream apache-arrow writes for `schema` and then `batch`, without the end-of-stream marker. */
function streamBytes(schema: Schema, batch?: RecordBatch): Uint8Array {
  const writer = new RecordBatchStreamWriter();
  writer.reset(undefined, schema);
  if (batch) writer.write(batch);
  return writer.toUint8Array(true);
}

/** Length of the message (without a body: a schema) at the start of `bytes`: marker, length, metadata. */
function leadingMessageLength(bytes: Uint8Array): number {
  return 8 + new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(4, true);
}

/** The Schema message that starts a stream of `schema` (its custom metadata included). */
export function schemaMessage(schema: Schema): Uint8Array {
  return streamBytes(schema);
}

/** The RecordBatch message of `batch`, ready to append to a stream of its schema. */
export function recordBatchMessage(batch: RecordBatch): Uint8Array {
  const bytes = streamBytes(batch.schema, batch);
  return bytes.subarray(leadingMessageLength(bytes));
}

/** A record batch of `schema` from one Data per field, in the schema's order. */
export function recordBatchOf(schema: Schema, length: number, children: Data[]): RecordBatch {
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}
