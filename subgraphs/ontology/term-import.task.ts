import { parseTermCsv, planImport, type CsvForm, type CsvTermRow, type ImportPlan, type ParsedCsv, type TaskResult } from './term-import.service.js';
import type { TermNode } from './store/term.store.js';

/**
 * Worker-thread entry points of the CSV import (lib/workers/pool.ts): parsing and planning a large file is CPU
 * work that must not hold up the request thread. Problems come back as values, since an error's class does not
 * survive the trip between threads.
 */
function asProblem(e: unknown): TaskResult<never> {
  const code = (e as { extensions?: { code?: string } }).extensions?.code;
  if (code === 'BAD_USER_INPUT' || code === 'CONFLICT') return { problem: { message: (e as Error).message, conflict: code === 'CONFLICT' } };
  throw e;
}

export async function parseCsvTask(input: { text: string; vocabulary: string | null }): Promise<TaskResult<ParsedCsv>> {
  try {
    return { ok: parseTermCsv(input.text, input.vocabulary) };
  } catch (e) {
    return asProblem(e);
  }
}

export async function planImportTask(input: { form: CsvForm; rows: CsvTermRow[]; existing: TermNode[] }): Promise<TaskResult<ImportPlan>> {
  try {
    return { ok: planImport(input.form, input.rows, input.existing) };
  } catch (e) {
    return asProblem(e);
  }
}
