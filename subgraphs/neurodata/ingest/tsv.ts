/**
 * ClickHouse TabSeparated encoding (https://clickhouse.com/docs/en/interfaces/formats#tabseparated): the text the
 * column store inserts as it comes (ColumnStore.insertTsv), so nothing is re-encoded on the request thread.
 */

/** Upper bound of one chunk of encoded rows, in UTF-8 bytes: big enough to insert efficiently, small enough to clone. */
export const TSV_CHUNK_BYTES = 8 * 1024 * 1024;

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A String value: backslash, tab, line feed and carriage return escaped; so `\N` as text cannot read as NULL. */
export function tsvString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : value;
}

/** A Float64 (or an integer type): the shortest text that reads back as the same double. */
export function tsvNumber(value: number): string {
  return String(value);
}

/** A Nullable(Float64): `\N` for null. */
export function tsvNullableNumber(value: number | null): string {
  return value === null ? '\\N' : String(value);
}

/**
 * Throws at module load when a table's column order in columns.ts is not the one an encoder writes: a column added
 * or moved there must be added or moved in the encoder too, or every row would land in the wrong columns.
 */
export function assertColumnOrder(table: string, columns: readonly (readonly [string, string])[], encoded: readonly string[]): void {
  const names = columns.map((c) => c[0]);
  if (names.join(',') !== encoded.join(',')) {
    throw new Error(`the ${table} encoder writes ${encoded.join(',')} but the table's columns are ${names.join(',')}`);
  }
}

/**
 * Gathers encoded lines into chunks of at most TSV_CHUNK_BYTES, each ending in '\n' (a single longer line is a
 * chunk of its own). Lines are written as UTF-8 into one buffer and each chunk is decoded from it once: gathering
 * them as strings would keep millions of small strings alive until the chunk is joined, several times its size.
 */
export class TsvChunks {
  readonly chunks: string[] = [];
  private buffer: Buffer;
  private used = 0;

  constructor(private readonly limit = TSV_CHUNK_BYTES) {
    this.buffer = Buffer.allocUnsafe(limit + 64 * 1024);
  }

  /** `line` must end in '\n'. */
  add(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8: only a line that may not fit needs measuring.
    if (this.used + line.length * 3 > this.buffer.length) {
      const size = Buffer.byteLength(line, 'utf8');
      if (this.used > 0 && this.used + size > this.limit) this.seal(this.used);
      if (this.used + size > this.buffer.length) {
        const bigger = Buffer.allocUnsafe(this.used + size);
        this.buffer.copy(bigger, 0, 0, this.used);
        this.buffer = bigger;
      }
    }
    const before = this.used;
    this.used += this.buffer.write(line, before, 'utf8');
    if (this.used > this.limit && before > 0) this.seal(before);
  }

  /** Makes the first `end` bytes a chunk and keeps the rest for the next. */
  private seal(end: number): void {
    this.chunks.push(this.buffer.toString('utf8', 0, end));
    this.buffer.copy(this.buffer, 0, end, this.used);
    this.used -= end;
  }

  /** Drops what was gathered (the file turned out to be bad: the encoded rows will never be inserted). */
  discard(): void {
    this.chunks.length = 0;
    this.used = 0;
  }

  finish(): string[] {
    if (this.used > 0) this.seal(this.used);
    return this.chunks;
  }
}
