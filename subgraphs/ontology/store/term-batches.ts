import type { NewTerm } from './term-records.js';

/**
 * New terms encoded for TermStore.insertTermBatches. Pure and free of imports, so that an import encodes its terms
 * on the worker pool (term-import.task.ts) and the request thread only passes strings along: decoding 60,000 planned
 * terms there, ordering and encoding them again held it for a few hundred milliseconds.
 */

/** Terms per write statement pair: under about 100 ms each on the embedded engine. */
export const WRITE_CHUNK = 200;

/** New terms as JSON arrays of at most WRITE_CHUNK rows (snake_case keys), parents before their children. */
export interface NewTermBatches {
  count: number;
  batches: string[];
}

/** New terms ordered so that a parent given in the same batch comes before its children. */
export function parentsFirst(terms: readonly NewTerm[]): NewTerm[] {
  const inBatch = new Map(terms.map((t) => [t.id, t]));
  const placed = new Set<string>();
  const out: NewTerm[] = [];
  for (const start of terms) {
    const pending: NewTerm[] = [];
    let cur: NewTerm | undefined = start;
    // Walk up to the first placed or stored ancestor; the plan has already refused cycles.
    while (cur && !placed.has(cur.id) && !pending.includes(cur)) {
      pending.push(cur);
      cur = cur.parentId ? inBatch.get(cur.parentId) : undefined;
    }
    for (let i = pending.length - 1; i >= 0; i--) {
      placed.add(pending[i].id);
      out.push(pending[i]);
    }
  }
  return out;
}

/** `terms` in write order, encoded batch by batch. */
export function encodeNewTerms(terms: readonly NewTerm[]): NewTermBatches {
  const ordered = parentsFirst(terms);
  const batches: string[] = [];
  for (let at = 0; at < ordered.length; at += WRITE_CHUNK) {
    batches.push(
      JSON.stringify(
        ordered.slice(at, at + WRITE_CHUNK).map((t) => ({
          id: t.id,
          vocabulary: t.vocabulary,
          code: t.code,
          label: t.label,
          uri: t.uri,
          parent_id: t.parentId,
          description: t.description,
          metadata: t.metadata,
        })),
      ),
    );
  }
  return { count: ordered.length, batches };
}
