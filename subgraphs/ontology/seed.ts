import path from 'node:path';
import { SHIPPED_SEED_DIR, readSeedFile } from '../../lib/seed-files.js';
import { parse } from 'csv-parse/sync';
import type { NewSynonym, TermStore } from './store/term.store.js';
import type { TermImportService } from './term-import.service.js';

/** The folder of the vocabularies inside the seed folder (SEED_DIR): CSVs, synonyms.tsv, and a README with sources, licences and citations. */
export const ONTOLOGY_SEED = 'ontology';

/** The shipped vocabularies (seed/ontology/), as tests read them. */
export const SEED_DIR = path.join(SHIPPED_SEED_DIR, ONTOLOGY_SEED);

export const SEED_VOCABULARIES: { name: string; description: string }[] = [
  {
    name: 'brain_region',
    description: 'Brain regions: Allen Mouse Brain Atlas (CCFv3) structures, Drosophila adult brain neuropils (FBbt), C. elegans nervous-system regions (WBbt)',
  },
  { name: 'species', description: 'Species and higher taxa (NCBI Taxonomy)' },
  { name: 'microscopy_technique', description: 'Microscopy techniques (Biological Imaging Methods Ontology, FBbi)' },
  { name: 'neurotransmitter', description: 'Neurotransmitters (ChEBI)' },
];

export interface SeedStep {
  vocabulary: string;
  skipped: boolean;
  created: number;
  updated: number;
  unchanged: number;
  synonymsAdded: number;
  ms: number;
}

/** synonyms.tsv: vocabulary, code, synonym, synonym_type, source. Tab-separated without quoting. */
async function readSynonyms(seedDir: string): Promise<NewSynonym[]> {
  const text = (await readSeedFile(seedDir, path.join(ONTOLOGY_SEED, 'synonyms.tsv'))).toString('utf8');
  const rows = parse(text, { bom: true, columns: true, delimiter: '\t', quote: false, skip_empty_lines: true }) as Record<string, string>[];
  return rows
    .filter((r) => r.vocabulary && r.code && r.synonym?.trim())
    .map((r) => ({ vocabulary: r.vocabulary, code: r.code, synonym: r.synonym.trim(), synonymType: r.synonym_type || null, source: r.source || null }));
}

/**
 * Loads the shipped vocabularies. With `onlyMissing` (start-up) a vocabulary that already has terms is left alone,
 * so local edits and deprecations survive restarts and start-up stays fast; without it (npm run seed) every file is
 * re-imported as an upsert, which reports unchanged rows and adds missing synonyms. Each vocabulary is one transaction.
 */
export async function seedVocabularies(
  deps: { store: TermStore; imports: TermImportService },
  opts: { onlyMissing: boolean; seedDir: string; onProgress?: (step: SeedStep) => void },
): Promise<SeedStep[]> {
  // Read once, and only when a vocabulary is imported: a restart that skips them all reads no file.
  let synonyms: Promise<NewSynonym[]> | undefined;
  const steps: SeedStep[] = [];
  for (const v of SEED_VOCABULARIES) {
    const started = performance.now();
    let step: SeedStep;
    if (opts.onlyMissing && (await deps.store.countTerms(v.name)) > 0) {
      step = { vocabulary: v.name, skipped: true, created: 0, updated: 0, unchanged: 0, synonymsAdded: 0, ms: 0 };
    } else {
      const csvData = (await readSeedFile(opts.seedDir, path.join(ONTOLOGY_SEED, `${v.name}.csv`))).toString('utf8');
      synonyms ??= readSynonyms(opts.seedDir);
      const report = await deps.imports.importCsv({
        vocabulary: v.name,
        csvData,
        vocabularyDescription: v.description,
        synonyms: (await synonyms).filter((s) => s.vocabulary === v.name),
      });
      step = { vocabulary: v.name, skipped: false, created: report.created, updated: report.updated, unchanged: report.unchanged, synonymsAdded: report.synonymsAdded, ms: 0 };
    }
    step.ms = Math.round(performance.now() - started);
    steps.push(step);
    opts.onProgress?.(step);
  }
  return steps;
}
