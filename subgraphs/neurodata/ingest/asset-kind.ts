import type { AssetKind } from '../dataset.model.js';

const SWC_SAMPLE = /^\s*\d+\s+\d+(\s+[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?){4}\s+-?\d+(\s|$)/;
const CSV_MEDIA_TYPES = ['text/csv', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel'];

function headerNames(firstLine: string): string[] {
  return firstLine
    .replace(/^\ufeff/, '')
    .replace(/\r$/, '')
    .split(',')
    .map((f) => f.trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase());
}

/**
 * What an uploaded file holds, from its name, media type and first line: a CSV (by extension or media type, or a
 * first line with commas when neither says otherwise) whose header has neuron_id is a neuron table, one with pre
 * and post a connection table; a `.swc` file, or a text file whose first line is an SWC sample or a comment that
 * names SWC, is a morphology. Anything else is kept as an `other` asset and not ingested.
 */
const extensionOf = (filename: string) => {
  const name = filename.toLowerCase();
  return name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
};
const mediaOf = (mediaType: string) => mediaType.toLowerCase().split(';')[0].trim();

/** Whether the name or the media type says the file is CSV. */
export const saysCsv = (filename: string, mediaType: string): boolean => extensionOf(filename) === 'csv' || CSV_MEDIA_TYPES.includes(mediaOf(mediaType));

export function detectAssetKind(filename: string, mediaType: string, firstLine: string): AssetKind {
  const media = mediaOf(mediaType);
  const extension = extensionOf(filename);
  if (extension === 'swc' || media.includes('swc')) return 'morphology';

  const csv = saysCsv(filename, mediaType);
  const plainText = !extension || extension === 'txt' || media === 'text/plain' || media === 'application/octet-stream';
  if (csv || (plainText && firstLine.includes(','))) {
    const names = headerNames(firstLine);
    if (names.includes('neuron_id')) return 'neurons';
    if (names.includes('pre') && names.includes('post')) return 'connections';
    return 'other';
  }
  if (plainText && (SWC_SAMPLE.test(firstLine) || /^\s*#.*\bswc\b/i.test(firstLine))) return 'morphology';
  return 'other';
}
