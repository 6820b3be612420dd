const TSV_ESCAPES: Record<string, string> = { b: '\b', f: '\f', r: '\r', n: '\n', t: '\t', '0': '\0', "'": "'", '\\': '\\' };

/**
 * A TabSeparated field's text: ClickHouse escapes backslash, tab, newline and a few controls with a backslash.
 * Imports nothing, so worker threads that parse query results can use it.
 */
export function unescapeTsv(field: string): string {
  if (!field.includes('\\')) return field;
  return field.replace(/\\(.)/g, (_, c: string) => TSV_ESCAPES[c] ?? c);
}
