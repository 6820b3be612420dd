/**
 * LZ4 frame decompression (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md), the codec of Arrow IPC
 * bodies that pyarrow's Feather writer uses by default. Blocks may be linked (a match may reach back into earlier
 * blocks), so every block is decoded into one output buffer. Checksums are skipped: the IPC reader checks lengths.
 */
const MAGIC = 0x184d2204;

export function decodeLz4Frame(input: Uint8Array, outputLength?: number): Uint8Array {
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  let out = new Uint8Array(outputLength ?? Math.max(64, input.length * 4));
  let o = 0;
  let i = 0;
  const ensure = (n: number) => {
    if (o + n <= out.length) return;
    const bigger = new Uint8Array(Math.max(out.length * 2, o + n));
    bigger.set(out.subarray(0, o));
    out = bigger;
  };
  while (i < input.length) {
    if (view.getUint32(i, true) !== MAGIC) throw new Error('LZ4: not an LZ4 frame');
    const flags = input[i + 4];
    i += 6 + (flags & 0x08 ? 8 : 0) + (flags & 0x01 ? 4 : 0) + 1;
    const blockChecksum = (flags & 0x10) !== 0;
    const contentChecksum = (flags & 0x04) !== 0;
    for (;;) {
      const size = view.getUint32(i, true);
      i += 4;
      if (size === 0) break;
      const length = size & 0x7fffffff;
      const block = input.subarray(i, i + length);
      if (size & 0x80000000) {
        ensure(length);
        out.set(block, o);
        o += length;
      } else {
        o = decodeBlock(block, () => out, ensure, o);
      }
      i += length + (blockChecksum ? 4 : 0);
    }
    if (contentChecksum) i += 4;
  }
  return o === out.length ? out : out.subarray(0, o);
}

/** One LZ4 block into `out()` from `o`; returns the new end. */
function decodeBlock(input: Uint8Array, out: () => Uint8Array, ensure: (n: number) => void, o: number): number {
  let i = 0;
  while (i < input.length) {
    const token = input[i++];
    let literals = token >> 4;
    if (literals === 15) {
      let b: number;
      do literals += b = input[i++];
      while (b === 255);
    }
    ensure(literals);
    out().set(input.subarray(i, i + literals), o);
    o += literals;
    i += literals;
    if (i >= input.length) break;
    const offset = input[i] | (input[i + 1] << 8);
    i += 2;
    if (offset === 0 || offset > o) throw new Error('LZ4: a match reaches before the start of the data');
    let match = token & 15;
    if (match === 15) {
      let b: number;
      do match += b = input[i++];
      while (b === 255);
    }
    match += 4;
    ensure(match);
    const buf = out();
    for (let k = 0; k < match; k++, o++) buf[o] = buf[o - offset];
  }
  return o;
}
