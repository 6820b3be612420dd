import { MORPHOLOGY_COLUMNS } from '../store/clickhouse/columns.js';
import { parseSwcTree, SOMA_TYPE } from '../../../domain/morphology/swc.js';
import { summariseSwc, type MorphologySummary } from '../../../domain/morphology/summary.js';
import { assertColumnOrder, tsvNullableNumber, tsvNumber, tsvString } from './tsv.js';

/**
 * SWC morphology files: the one summary row each file gets in the column store. Reading and validating the file
 * (format, accepted quirks, per-line errors) is domain/morphology/swc.ts, the summary and its conventions
 * domain/morphology/summary.ts.
 */

assertColumnOrder('morphologies', MORPHOLOGY_COLUMNS, [
  'dataset_id', 'version', 'neuron', 'file', 'object_key', 'sha256',
  'n_points', 'n_soma_points', 'n_stems', 'n_bifurcations', 'n_tips', 'total_length',
  'soma_x', 'soma_y', 'soma_z', 'min_x', 'min_y', 'min_z', 'max_x', 'max_y', 'max_z',
]);

export { SOMA_TYPE };
export type { MorphologySummary };

export interface ParsedSwc {
  summary: MorphologySummary;
  /** Things worth telling the uploader that do not stop the file (several roots). */
  warnings: string[];
}

/** A row of the morphologies table: which file of which neuron, and its summary. */
export interface MorphologyRow extends MorphologySummary {
  datasetId: string;
  version: number;
  neuron: string;
  file: string;
  objectKey: string;
  sha256: string;
}

/**
 * Parses and summarises an SWC file. Throws BadInput naming the file and line of every problem: a line that is not
 * seven numbers, a coordinate or radius outside SWC_RANGES, an id given twice, a parent that is not a sample of the
 * file, parent links that form a cycle, no root at all.
 */
export function parseSwc(text: string | Uint8Array, filename: string): ParsedSwc {
  const tree = parseSwcTree(text, filename);
  return { summary: summariseSwc(tree), warnings: tree.warnings };
}

/** The row as one TabSeparated line (ending in '\n') in MORPHOLOGY_COLUMNS order. */
export function encodeMorphologyRow(row: MorphologyRow): string {
  return (
    [
      tsvString(row.datasetId),
      String(row.version),
      tsvString(row.neuron),
      tsvString(row.file),
      tsvString(row.objectKey),
      tsvString(row.sha256),
      String(row.nPoints),
      String(row.nSomaPoints),
      String(row.nStems),
      String(row.nBifurcations),
      String(row.nTips),
      tsvNumber(row.totalLength),
      tsvNullableNumber(row.somaX),
      tsvNullableNumber(row.somaY),
      tsvNullableNumber(row.somaZ),
      tsvNumber(row.minX),
      tsvNumber(row.minY),
      tsvNumber(row.minZ),
      tsvNumber(row.maxX),
      tsvNumber(row.maxY),
      tsvNumber(row.maxZ),
    ].join('\t') + '\n'
  );
}
