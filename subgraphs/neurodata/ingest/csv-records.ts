import { parse, CsvError } from 'csv-parse/sync';

/**
 * An uploaded file's content: text, or its bytes. V8 caps a string at about 512 million characters, so a connection
 * table of FlyWire's size (15 million rows, over 600 MB) can only come as bytes; they are decoded a block at a time.
 */
export type CsvSource = string | Uint8Array;

/** UTF-8 bytes decoded per step: big enough that line splitting dominates, small next to the file. */
const DECODE_BLOCK_BYTES = 4 * 1024 * 1024;
/** A quoted field may hold line breaks, but a record longer than this is an unclosed quote, not data. */
const QUOTED_RECORD_MAX_CHARS = 1024 * 1024;
/**
 * The longest cell of a table, in characters. The longest value a connectome file holds is a name or a list of
 * neurotransmitters, tens of characters; a cell of megabytes is a broken export (an unclosed quote that a
 * spreadsheet swallowed the rest of the file into) or an attempt to fill the column store, and is refused.
 */
export const CSV_CELL_MAX_CHARS = 64 * 1024;
/** Quoted records handed to csv-parse at once: files that quote every field would otherwise call it once per row. */
const QUOTED_BATCH_MAX_CHARS = 1024 * 1024;

function syntaxMessage(e: CsvError): string {
  switch (e.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'malformed CSV: a quoted field opened on this line is not closed';
    case 'INVALID_OPENING_QUOTE':
      return 'malformed CSV: a double quote inside an unquoted field; quote the whole field and double the quotes inside it ("")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'malformed CSV: text follows the closing quote of a field; double the quotes inside a quoted field ("")';
    default:
      return `malformed CSV: ${e.message.replace(/\s*(at|on) line \d+.*$/s, '')}`;
  }
}

function countQuotes(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) n++;
  return n;
}

/**
 * One record, reused from line to line so that reading a file of millions of rows allocates only the fields taken
 * out of it: a plain line is kept as a range of its block and split on demand, a quoted record as csv-parse's fields.
 */
export class CsvRow {
  /** Number of fields. */
  width = 0;
  private text = '';
  private starts = new Int32Array(16);
  private ends = new Int32Array(16);
  private fields: string[] | null = null;

  /** Characters of the record's longest field. */
  longest = 0;

  setFields(fields: string[]): void {
    this.fields = fields;
    this.width = fields.length;
    this.longest = 0;
    for (const f of fields) if (f.length > this.longest) this.longest = f.length;
  }

  /** A line without quotes: `text` from `start` to `end` (exclusive, line break excluded). */
  setRange(text: string, start: number, end: number): void {
    this.fields = null;
    this.text = text;
    let n = 0;
    let from = start;
    let longest = 0;
    for (;;) {
      if (n === this.starts.length) this.grow();
      const comma = text.indexOf(',', from);
      this.starts[n] = from;
      const to = comma < 0 || comma >= end ? end : comma;
      if (to - from > longest) longest = to - from;
      if (to === end) {
        this.ends[n++] = end;
        break;
      }
      this.ends[n++] = comma;
      from = comma + 1;
    }
    this.width = n;
    this.longest = longest;
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }

  /** Field `i` with the spaces around it removed. */
  field(i: number): string {
    if (this.fields) return this.fields[i].trim();
    let a = this.starts[i];
    let b = this.ends[i];
    while (a < b && this.text.charCodeAt(a) <= 32) a++;
    while (b > a && this.text.charCodeAt(b - 1) <= 32) b--;
    return this.text.slice(a, b);
  }

  toArray(): string[] {
    if (this.fields) return [...this.fields];
    return Array.from({ length: this.width }, (_, i) => this.text.slice(this.starts[i], this.ends[i]));
  }
}

/**
 * Reads CSV records (RFC 4180: quoted fields with commas, doubled quotes and line breaks; a BOM; LF or CRLF line
 * ends), calling `onRecord` with each record (header included; the row object is reused, so take what you need
 * before returning) and the physical line it starts on (1-based). Blank lines are skipped. Lines without a double
 * quote, nearly every line of a connectome table, are split directly; quoted records go to csv-parse. At the first
 * malformed record `onSyntaxError` is called with its line and reading stops, since nothing after it can be trusted.
 */
export function readCsvRecords(
  source: CsvSource,
  onRecord: (row: CsvRow, line: number) => void,
  onSyntaxError: (line: number, message: string) => void,
  /** Raises the cell limit (a neuPrint roiInfo cell holds per-ROI counts of thousands of ROIs). */
  limits: { maxCellChars?: number } = {},
): void {
  const maxCell = limits.maxCellChars ?? CSV_CELL_MAX_CHARS;
  const maxQuoted = Math.max(QUOTED_RECORD_MAX_CHARS, 2 * maxCell);
  const row = new CsvRow();
  let line = 0;
  let stopped = false as boolean;
  /** A quoted record still open at the end of its last line (odd number of quotes so far). */
  let open = null as { text: string; line: number; quotes: number; eol: string } | null;
  let batch: { text: string; line: number }[] = [];
  let batchChars = 0;

  const fail = (at: number, message: string) => {
    stopped = true;
    onSyntaxError(at, message);
  };

  const tooLong = () => `a cell is ${row.longest} characters long, over the limit of ${maxCell} characters per cell`;

  const emit = (fields: string[], at: number) => {
    row.setFields(fields);
    if (row.longest > maxCell) return fail(at, tooLong());
    onRecord(row, at);
  };

  const flushBatch = () => {
    if (!batch.length) return;
    const pending = batch;
    batch = [];
    batchChars = 0;
    let records: string[][] | null = null;
    try {
      records = parse(pending.map((r) => r.text).join('\n'), { relax_column_count: true }) as string[][];
    } catch (e) {
      if (!(e instanceof CsvError)) throw e;
    }
    if (records && records.length === pending.length) {
      for (let k = 0; k < pending.length && !stopped; k++) emit(records[k], pending[k].line);
      return;
    }
    // Only a malformed record gets here: parse one at a time to name its line.
    for (const r of pending) {
      let one: string[][];
      try {
        one = parse(r.text, { relax_column_count: true }) as string[][];
      } catch (e) {
        if (!(e instanceof CsvError)) throw e;
        fail(r.line, syntaxMessage(e));
        return;
      }
      if (one.length !== 1) {
        fail(r.line, 'malformed CSV: the quotes of this record do not pair up');
        return;
      }
      emit(one[0], r.line);
      if (stopped) return;
    }
  };

  const completeQuoted = (text: string, at: number) => {
    batch.push({ text, line: at });
    batchChars += text.length;
    if (batchChars >= QUOTED_BATCH_MAX_CHARS) flushBatch();
  };

  /**
   * One physical line, `text` from `start` to `end`; `quoted` when it holds a double quote; `eol` the line break
   * that ended it, kept inside a quoted field that goes on over the next line.
   */
  const handleLine = (text: string, start: number, end: number, quoted: boolean, eol: string) => {
    line++;
    if (open) {
      const part = text.slice(start, end);
      open.text += open.eol + part;
      open.eol = eol;
      open.quotes += countQuotes(part);
      if (open.quotes % 2 === 0) {
        const done = open;
        open = null;
        completeQuoted(done.text, done.line);
      } else if (open.text.length > maxQuoted) {
        fail(open.line, 'malformed CSV: a quoted field opened on this line is not closed');
      }
      return;
    }
    if (start === end || (text.charCodeAt(start) <= 32 && text.slice(start, end).trim() === '')) return;
    if (!quoted) {
      flushBatch();
      if (stopped) return;
      row.setRange(text, start, end);
      if (row.longest > maxCell) return fail(line, tooLong());
      onRecord(row, line);
      return;
    }
    const part = text.slice(start, end);
    const quotes = countQuotes(part);
    const first = part.indexOf('"');
    // Only a quote that begins a field can open a field that goes on over the next lines; any other odd quote
    // makes this line malformed on its own, and csv-parse says how.
    if (quotes % 2 === 0 || (first > 0 && part.charCodeAt(first - 1) !== 44)) completeQuoted(part, line);
    else open = { text: part, line, quotes, eol };
  };

  const handleBlock = (block: string, last: boolean, carry: string): string => {
    const text = carry ? carry + block : block;
    let pos = 0;
    let nextQuote = -1;
    while (!stopped) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) break;
      const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (nextQuote !== Infinity && nextQuote < pos) {
        nextQuote = text.indexOf('"', pos);
        if (nextQuote < 0) nextQuote = Infinity;
      }
      handleLine(text, pos, end, nextQuote < end, end === nl ? '\n' : '\r\n');
      pos = nl + 1;
    }
    if (stopped) return '';
    if (last && pos < text.length) {
      const end = text.charCodeAt(text.length - 1) === 13 ? text.length - 1 : text.length;
      handleLine(text, pos, end, text.indexOf('"', pos) >= 0, '');
      return '';
    }
    return text.slice(pos);
  };

  if (typeof source === 'string') {
    handleBlock(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source, true, '');
  } else {
    // fatal: a file in another encoding is refused rather than stored with replacement characters.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let carry = '';
    for (let offset = 0; offset < source.length && !stopped; offset += DECODE_BLOCK_BYTES) {
      const slice = source.subarray(offset, offset + DECODE_BLOCK_BYTES);
      const last = offset + DECODE_BLOCK_BYTES >= source.length;
      let block: string;
      try {
        block = decoder.decode(slice, { stream: !last });
      } catch {
        const lossy = carry + new TextDecoder('utf-8').decode(slice);
        const before = lossy.slice(0, Math.max(0, lossy.indexOf('\ufffd')));
        fail(line + 1 + countLineBreaks(before), 'the file is not UTF-8 text; save it as UTF-8 (CSV UTF-8 in a spreadsheet program)');
        break;
      }
      carry = handleBlock(block, last, carry);
    }
  }
  if (stopped) return;
  flushBatch();
  if (!stopped && open) fail(open.line, 'malformed CSV: a quoted field opened on this line is not closed');
}

function countLineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
