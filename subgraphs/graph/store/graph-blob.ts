import { z } from 'zod';
import type { GraphData } from '../graph.model.js';

/** Format tag and version: a blob of another format is ignored and the graph rebuilt from the column store. */
const MAGIC = 'NDGRAPH2';

const HEADER = z.object({
  n: z.number().int().nonnegative(),
  chem: z.number().int().nonnegative(),
  elec: z.number().int().nonnegative(),
  ids: z.array(z.string()),
  /** '' where the name is the neuron_id. */
  names: z.array(z.string()),
  classes: z.array(z.string()),
  types: z.array(z.string()),
});
type Header = z.infer<typeof HEADER>;

/**
 * A graph as one binary object (kept in object storage, so that a restart does not read the column store again):
 * the magic, a JSON header with the cells, then the arrays as little-endian machine numbers, 8-byte aligned.
 */
export function encodeGraph(g: GraphData): Buffer {
  const s = g.source;
  const header: Header = { n: s.n, chem: s.chemPre.length, elec: s.elecA.length, ids: g.ids, names: g.names.map((name, i) => (name === g.ids[i] ? '' : name)), classes: g.classes, types: g.types };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align8(MAGIC.length + 4 + json.length);
  const arrays = [s.chemWeight, s.elecWeight, s.chemPre, s.chemPost, s.elecA, s.elecB];
  const out = Buffer.alloc(start + arrays.reduce((n, a) => n + a.byteLength, 0));
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, MAGIC.length + 4);
  let at = start;
  for (const a of arrays) {
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, at);
    at += a.byteLength;
  }
  return out;
}

/** The graph of `encodeGraph`, its arrays in shared memory for the worker threads; null for a blob of another format. */
export function decodeGraph(blob: Buffer): GraphData | null {
  if (blob.length < MAGIC.length + 4 || blob.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const length = blob.readUInt32LE(MAGIC.length);
  if (blob.length < MAGIC.length + 4 + length) return null;
  const header = readHeader(blob.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + length));
  if (!header) return null;
  let at = align8(MAGIC.length + 4 + length);
  if (blob.length !== at + header.chem * 16 + header.elec * 16) return null;
  const take = <T extends Int32Array | Float64Array>(make: (b: SharedArrayBuffer) => T, count: number, size: number): T => {
    const shared = new SharedArrayBuffer(count * size);
    blob.copy(Buffer.from(shared), 0, at, at + count * size);
    at += count * size;
    return make(shared);
  };
  const f64 = (count: number) => take((b) => new Float64Array(b), count, 8);
  const i32 = (count: number) => take((b) => new Int32Array(b), count, 4);
  const chemWeight = f64(header.chem);
  const elecWeight = f64(header.elec);
  const chemPre = i32(header.chem);
  const chemPost = i32(header.chem);
  const elecA = i32(header.elec);
  const elecB = i32(header.elec);
  return {
    source: { n: header.n, chemPre, chemPost, chemWeight, elecA, elecB, elecWeight },
    ids: header.ids,
    names: header.names.map((name, i) => name || header.ids[i]),
    classes: header.classes,
    types: header.types,
  };
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** The header's cells and array lengths; null for text that is not such a header (a damaged blob is rebuilt, not trusted). */
function readHeader(text: string): Header | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const header = HEADER.safeParse(json);
  return header.success ? header.data : null;
}
