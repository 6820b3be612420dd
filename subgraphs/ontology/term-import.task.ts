import { parseTermCsv, planImport, type CsvForm, type CsvTermRow, type EncodedImportPlan, type ParsedCsvGroups, type TaskResult } from './term-import.service.js';
import { encodeNewTerms } from './store/term-batches.js';
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

export async function parseCsvTask(input: { text: string; vocabulary: string | null }): Promise<TaskResult<ParsedCsvGroups>> {
  try {
    const parsed = parseTermCsv(input.text, input.vocabulary);
    const groups = new Map<string, CsvTermRow[]>();
    for (const r of parsed.rows) {
      const group = groups.get(r.vocabulary);
      if (group) group.push(r);
      else groups.set(r.vocabulary, [r]);
    }
    return { ok: { form: parsed.form, groups: [...groups].map(([vocabulary, rows]) => ({ vocabulary, count: rows.length, rows: JSON.stringify(rows) })) } };
  } catch (e) {
    return asProblem(e);
  }
}

/** Plans one vocabulary's rows (JSON, as parseCsvTask encoded them) and encodes the new terms for writing. */
export async function planImportTask(input: { form: CsvForm; rows: string; existing: TermNode[] }): Promise<TaskResult<EncodedImportPlan>> {
  try {
    const plan = planImport(input.form, JSON.parse(input.rows) as CsvTermRow[], input.existing);
    return { ok: { ...plan, creates: encodeNewTerms(plan.creates) } };
  } catch (e) {
    return asProblem(e);
  }
}
