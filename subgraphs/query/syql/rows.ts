import { unescapeTsv } from '../../../lib/column/tsv.js';
import type { ResultColumn } from './plan.js';

export type Cell = string | number | boolean | null;

/** One TabSeparated field as the JSON value its column's type says (`\N` is NULL; non-finite floats become null). */
export function decodeCell(field: string, column: ResultColumn): Cell {
  if (field === '\\N') return null;
  switch (column.type) {
    case 'string':
      return unescapeTsv(field);
    case 'boolean':
      return field === '1' || field === 'true';
    case 'integer': {
      const n = Number(field);
      // Beyond 2^53 a JSON number would silently change the value; the text keeps it exact.
      return Number.isSafeInteger(n) ? n : field;
    }
    case 'float': {
      const n = Number(field);
      return Number.isFinite(n) ? n : null;
    }
  }
}

/** Decodes whole TabSeparated lines into rows of cells, in the columns' order. */
export function decodeTsvRows(text: string, columns: readonly ResultColumn[], into: Cell[][] = []): Cell[][] {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const fields = text.slice(start, end).split('\t');
    into.push(columns.map((c, i) => decodeCell(fields[i] ?? '\\N', c)));
    start = end + 1;
  }
  return into;
}
