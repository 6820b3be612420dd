import { parse, CsvError } from 'csv-parse/sync';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { BadInput, Conflict } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { NewSynonym, NewTerm, TermChange, TermNode, TermStore } from './store/term.store.js';
import { CODE_MAX, DESCRIPTION_MAX, LABEL_MAX, URI_MAX } from './term.rules.js';
import { runTask } from '../../lib/workers/pool.js';
import type { NewTermBatches } from './store/term-batches.js';

/** Current form `code,label,uri,parent_code`; older form `name,vocabulary,parent_name,description` (spec 2.3). */
export type CsvForm = 'current' | 'older';

const COLUMNS: Record<CsvForm, { required: string[]; optional: string[] }> = {
  current: { required: ['code', 'label'], optional: ['uri', 'parent_code', 'description'] },
  older: { required: ['name'], optional: ['vocabulary', 'parent_name', 'description'] },
};

/** One data row of an import file, validated field by field. */
export interface CsvTermRow {
  /** Row number counting the header as row 1 (a spreadsheet's numbering). */
  row: number;
  /** Physical line the row ends on; differs from `row` after blank lines or line breaks inside quotes. */
  line: number;
  vocabulary: string;
  code: string;
  label: string;
  /** undefined when the file has no such column: the stored value is kept. */
  uri?: string | null;
  description?: string | null;
  /** A code of this file or of the vocabulary (older form: a name, which may also match a stored label). */
  parentRef: string | null;
}

export interface ParsedCsv {
  form: CsvForm;
  rows: CsvTermRow[];
}

export interface ImportPlan {
  creates: NewTerm[];
  updates: TermChange[];
  unchanged: number;
}

/**
 * A parsed file as the worker pool hands it to the request thread: each vocabulary's rows stay encoded (JSON) until
 * the plan task reads them, so the request thread never builds one object per row.
 */
export interface ParsedCsvGroups {
  form: CsvForm;
  groups: { vocabulary: string; count: number; rows: string }[];
}

/** An ImportPlan whose new terms are encoded for TermStore.insertTermBatches. */
export type EncodedImportPlan = Omit<ImportPlan, 'creates'> & { creates: NewTermBatches };

export interface ImportReport {
  created: number;
  updated: number;
  unchanged: number;
  vocabularies: string[];
  /** Synonyms added in the same transaction (seeding only). */
  synonymsAdded: number;
}

const MAX_REPORTED_PROBLEMS = 20;
/** Imports that write this many rows refresh the planner statistics (see TermStore.analyze). */
const ANALYZE_AFTER_ROWS = 100;
const VOCABULARY_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;

const where = (r: { row: number; line: number }) => (r.row === r.line ? `row ${r.row}` : `row ${r.row} (line ${r.line})`);

/**
 * Collects row problems and throws them together, so one round trip shows every bad row of a file. A file whose
 * only problems conflict with the stored hierarchy (a cycle through stored terms) is a 409, like the same move made
 * with PUT; anything wrong with the file itself is a 400.
 */
class Problems {
  private readonly list: { message: string; conflict: boolean }[] = [];
  add(message: string, conflict = false): void {
    this.list.push({ message, conflict });
  }
  throwIfAny(): void {
    if (!this.list.length) return;
    const shown = this.list.slice(0, MAX_REPORTED_PROBLEMS).map((p) => p.message).join('; ');
    const more = this.list.length > MAX_REPORTED_PROBLEMS ? `; and ${this.list.length - MAX_REPORTED_PROBLEMS} more` : '';
    const message = `csv_data: ${this.list.length === 1 ? 'nothing was imported' : `${this.list.length} problems, nothing was imported`}: ${shown}${more}`;
    throw this.list.every((p) => p.conflict) ? new Conflict(message) : new BadInput(message);
  }
}

function csvSyntaxMessage(e: CsvError, text: string): string {
  const line = (e as unknown as { lines?: number }).lines;
  const at = line ? ` at line ${line}` : '';
  switch (e.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `csv_data: malformed CSV${at}: a quoted field is not closed`;
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const got = (e as unknown as { record?: unknown[] }).record?.length;
      let expected: number | undefined;
      try {
        expected = (parse(text, { bom: true, to_line: 1 }) as string[][])[0]?.length;
      } catch {
        /* the header itself is unreadable: say less */
      }
      return `csv_data: malformed CSV${at}: the row has ${got ?? 'a different number of'} fields but the header has ${expected ?? 'another number'}; quote fields that contain commas`;
    }
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `csv_data: malformed CSV${at}: a double quote inside a field; quote the whole field and double the inner quotes ("")`;
    default:
      return `csv_data: malformed CSV${at}: ${e.message.replace(/\s*(at|on) line \d+.*$/s, '')}`;
  }
}

/**
 * Parses an import file in either form (RFC 4180 quoting, line breaks inside quotes, a UTF-8 BOM, CRLF) and checks
 * each row on its own. `vocabulary` is the import's vocabulary: required for the current form; for the older form
 * it fills rows whose vocabulary column is empty and must agree with the rest. Throws BadInput naming every bad row.
 */
export function parseTermCsv(text: string, vocabulary: string | null): ParsedCsv {
  if (typeof text !== 'string' || !text.trim()) throw new BadInput('csv_data is required: CSV text with a header row');
  let records: { record: string[]; info: { lines: number; records: number } }[];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, info: true, relax_column_count: false }) as never;
  } catch (e) {
    if (e instanceof CsvError) throw new BadInput(csvSyntaxMessage(e, text));
    throw e;
  }
  if (records.length === 0) throw new BadInput('csv_data is required: CSV text with a header row');
  const header = records[0].record.map((h) => h.trim().toLowerCase());
  const form: CsvForm | null = header.includes('code') ? 'current' : header.includes('name') ? 'older' : null;
  if (!form) {
    throw new BadInput(`csv_data: the header must be code,label,uri,parent_code or name,vocabulary,parent_name,description (got ${records[0].record.join(',')})`);
  }
  const known = [...COLUMNS[form].required, ...COLUMNS[form].optional];
  const problems = new Problems();
  for (const col of COLUMNS[form].required) if (!header.includes(col)) problems.add(`the header has no ${col} column`);
  const unknown = header.filter((h) => !known.includes(h));
  if (unknown.length) problems.add(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the ${form} form has ${known.join(', ')}`);
  const duplicated = header.filter((h, i) => header.indexOf(h) !== i);
  if (duplicated.length) problems.add(`column ${duplicated[0]} appears twice in the header`);
  problems.throwIfAny();
  if (form === 'current' && !vocabulary) {
    throw new BadInput('vocabulary is required for the code,label,uri,parent_code form (in the JSON body, or ?vocabulary= with a text/csv body)');
  }

  const col = (name: string) => header.indexOf(name);
  const cell = (record: string[], name: string): string | undefined => (col(name) >= 0 ? record[col(name)].trim() : undefined);
  const rows: CsvTermRow[] = [];
  for (const { record, info } of records.slice(1)) {
    const at = { row: info.records, line: info.lines };
    const rowProblems: string[] = [];
    const text = (name: string, max: number, required: boolean): string => {
      const v = cell(record, name) ?? '';
      if (required && !v) rowProblems.push(`${name} is empty`);
      else if (v.length > max) rowProblems.push(`${name} is longer than ${max} characters`);
      else if ((name === 'label' ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/).test(v) && name !== 'description') {
        rowProblems.push(`${name} contains ${name === 'label' ? 'a control character' : 'a line break or another control character'}`);
      }
      return v;
    };
    let rowVocabulary = vocabulary ?? '';
    if (form === 'older') {
      const own = cell(record, 'vocabulary') ?? '';
      if (own && vocabulary && own !== vocabulary) rowProblems.push(`vocabulary ${JSON.stringify(own)} differs from the import's vocabulary ${JSON.stringify(vocabulary)}`);
      rowVocabulary = own || vocabulary || '';
      if (!rowVocabulary) rowProblems.push('vocabulary is empty and the import names none');
    }
    if (rowVocabulary && !VOCABULARY_NAME.test(rowVocabulary)) rowProblems.push(`vocabulary ${JSON.stringify(rowVocabulary)} is not a lower-case snake_case name`);
    const code = text(form === 'current' ? 'code' : 'name', CODE_MAX, true);
    const label = form === 'current' ? text('label', LABEL_MAX, true) : code;
    const uriCell = cell(record, 'uri');
    if (uriCell && (uriCell.length > URI_MAX || !URI.test(uriCell))) rowProblems.push(`uri ${JSON.stringify(uriCell)} is not an absolute URI`);
    const descriptionCell = cell(record, 'description');
    if (descriptionCell && descriptionCell.length > DESCRIPTION_MAX) rowProblems.push(`description is longer than ${DESCRIPTION_MAX} characters`);
    const parentRef = cell(record, form === 'current' ? 'parent_code' : 'parent_name') || null;
    if (rowProblems.length) {
      problems.add(`${where(at)}: ${rowProblems.join(', ')}`);
      continue;
    }
    rows.push({
      ...at,
      vocabulary: rowVocabulary,
      code,
      label,
      ...(uriCell !== undefined ? { uri: uriCell || null } : {}),
      ...(descriptionCell !== undefined ? { description: descriptionCell || null } : {}),
      parentRef,
    });
  }
  problems.throwIfAny();
  if (rows.length === 0) throw new BadInput('csv_data: the file has a header but no rows');
  return { form, rows };
}

/**
 * Works out what importing `rows` (all of one vocabulary) into `existing` (that vocabulary's stored terms) does:
 * rows with a new code become terms, rows whose fields differ update their term, the rest are unchanged. Parents
 * resolve to a code of the file, then a stored code, then (older form) a unique stored label. Throws BadInput naming
 * every row whose parent is unknown or that closes a cycle within the file, and codes given twice; Conflict when the
 * only problems are cycles through stored terms.
 */
export function planImport(form: CsvForm, rows: CsvTermRow[], existing: TermNode[]): ImportPlan {
  const problems = new Problems();
  const stored = new Map(existing.map((t) => [t.code, t]));
  const storedById = new Map(existing.map((t) => [t.id, t]));
  const byLabel = new Map<string, TermNode[]>();
  for (const t of existing) {
    if (t.status !== 'active') continue;
    const same = byLabel.get(t.label);
    if (same) same.push(t);
    else byLabel.set(t.label, [t]);
  }

  const inFile = new Map<string, CsvTermRow>();
  for (const r of rows) {
    const first = inFile.get(r.code);
    if (first) problems.add(`${where(r)}: ${form === 'current' ? 'code' : 'name'} ${JSON.stringify(r.code)} already appears in ${where(first)}`);
    else inFile.set(r.code, r);
  }
  problems.throwIfAny();

  const idOf = new Map<string, string>();
  for (const r of rows) idOf.set(r.code, stored.get(r.code)?.id ?? newId());

  /** code -> parent code after the import, for every term of the vocabulary. */
  const parentCode = new Map<string, string | null>();
  for (const t of existing) parentCode.set(t.code, t.parentId ? (storedById.get(t.parentId)?.code ?? null) : null);
  for (const r of rows) {
    let parent: string | null = null;
    if (r.parentRef !== null) {
      if (inFile.has(r.parentRef) || stored.has(r.parentRef)) parent = r.parentRef;
      else if (form === 'older' && byLabel.get(r.parentRef)?.length === 1) parent = byLabel.get(r.parentRef)![0].code;
      else {
        const field = form === 'current' ? 'parent_code' : 'parent_name';
        problems.add(`${where(r)}: ${field} ${JSON.stringify(r.parentRef)} is neither a ${form === 'current' ? 'code' : 'name'} in this file nor a term of vocabulary ${r.vocabulary}`);
        continue;
      }
      if (parent === r.code) {
        problems.add(`${where(r)}: a term cannot be its own parent`);
        continue;
      }
    }
    parentCode.set(r.code, parent);
  }
  problems.throwIfAny();

  // A walk up from each row meets a root unless the new parent links close a loop; `safe` remembers codes known to reach a root.
  const safe = new Set<string>();
  for (const r of rows) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: string | null = r.code;
    while (cur !== null && !safe.has(cur)) {
      if (onPath.has(cur)) {
        const loop = [...path.slice(path.indexOf(cur)), cur];
        const throughStored = loop.some((code) => !inFile.has(code));
        problems.add(`${where(r)}: the parent links ${loop.join(' -> ')} form a cycle${throughStored ? ' with stored terms' : ''}`, throughStored);
        break;
      }
      onPath.add(cur);
      path.push(cur);
      cur = parentCode.get(cur) ?? null;
    }
    if (cur === null || safe.has(cur)) for (const c of path) safe.add(c);
  }
  problems.throwIfAny();

  const creates: NewTerm[] = [];
  const updates: TermChange[] = [];
  let unchanged = 0;
  for (const r of rows) {
    const parent = parentCode.get(r.code) ?? null;
    const parentId = parent === null ? null : (idOf.get(parent) ?? stored.get(parent)!.id);
    const current = stored.get(r.code);
    if (!current) {
      creates.push({ id: idOf.get(r.code)!, vocabulary: r.vocabulary, code: r.code, label: r.label, uri: r.uri ?? null, parentId, description: r.description ?? null, metadata: {} });
      continue;
    }
    const change: TermChange = { id: current.id };
    if (current.label !== r.label) change.label = r.label;
    if (r.uri !== undefined && current.uri !== r.uri) change.uri = r.uri;
    if (r.description !== undefined && current.description !== r.description) change.description = r.description;
    if (current.parentId !== parentId) change.parentId = parentId;
    if (Object.keys(change).length > 1) updates.push(change);
    else unchanged++;
  }
  return { creates, updates, unchanged };
}

/** What a task of term-import.task.ts returns: its result, or the problem its input has. */
export type TaskResult<T> = { ok: T } | { problem: { message: string; conflict: boolean } };

// Named by URL, not imported: the task module runs on worker threads.
const IMPORT_TASKS = new URL('./term-import.task.ts', import.meta.url);

/** Runs a parse or plan step on a worker thread and turns a reported problem back into its error. */
async function offThread<T>(name: 'parseCsvTask' | 'planImportTask', input: unknown): Promise<T> {
  const result = await runTask<TaskResult<T>>(IMPORT_TASKS, name, input);
  if ('ok' in result) return result.ok;
  throw result.problem.conflict ? new Conflict(result.problem.message) : new BadInput(result.problem.message);
}

/** Bulk CSV import: all rows in one transaction, or none. */
export class TermImportService {
  constructor(
    private readonly store: TermStore,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    /** Told when an import has changed terms, before it answers (TermService.termsChanged). */
    private readonly termsChanged: () => void = () => {},
  ) {}

  /**
   * Imports `csvData` (either form) into `vocabulary`. Idempotent: importing the same file again reports every row
   * unchanged. Codes already stored are updated in place (label, uri, parent, description; never metadata, synonyms
   * or status: a deprecated term stays deprecated). Vocabularies are created when new.
   */
  async importCsv(p: { vocabulary?: string | null; csvData: string; vocabularyDescription?: string | null; synonyms?: NewSynonym[] }): Promise<ImportReport> {
    const vocabulary = p.vocabulary?.trim() || null;
    if (vocabulary !== null && !VOCABULARY_NAME.test(vocabulary)) {
      throw new BadInput(`vocabulary: expected a vocabulary name in lower-case snake_case, such as brain_region (got ${JSON.stringify(vocabulary)})`);
    }
    const parsed = await offThread<ParsedCsvGroups>('parseCsvTask', { text: p.csvData, vocabulary });
    const groups = new Map(parsed.groups.map((g) => [g.vocabulary, g]));
    const names = [...groups.keys()].sort();
    const now = this.clock.now();
    const report: ImportReport = { created: 0, updated: 0, unchanged: 0, vocabularies: names, synonymsAdded: 0 };
    await this.store.transaction(async (tx) => {
      for (const name of names) await tx.lockVocabulary(name);
      for (const name of names) {
        const plan = await offThread<EncodedImportPlan>('planImportTask', { form: parsed.form, rows: groups.get(name)!.rows, existing: await tx.vocabularyNodes(name) });
        await tx.ensureVocabulary(name, names.length === 1 ? (p.vocabularyDescription ?? null) : null, now);
        await tx.insertTermBatches(plan.creates, now);
        await tx.updateTerms(plan.updates, now);
        report.created += plan.creates.count;
        report.updated += plan.updates.length;
        report.unchanged += plan.unchanged;
      }
      if (p.synonyms?.length) report.synonymsAdded = await tx.addSynonyms(p.synonyms.filter((s) => groups.has(s.vocabulary)));
    });
    this.termsChanged();
    if (report.created + report.updated >= ANALYZE_AFTER_ROWS) await this.store.analyze();
    this.log.info({ ...report, rows: parsed.groups.reduce((n, g) => n + g.count, 0) }, 'terms imported');
    return report;
  }
}
