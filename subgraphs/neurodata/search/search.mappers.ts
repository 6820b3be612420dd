import { toMetadataView } from '../dataset.mappers.js';
import type { SearchRow } from './search.model.js';
import type { CatalogueEntry } from './search.types.js';

/** A catalogue row's public metadata, as search hits and public records show it. */
export function toCatalogueEntry(row: SearchRow): CatalogueEntry {
  const m = toMetadataView(row.metadata);
  return {
    dataset_id: row.datasetId,
    slug: row.slug,
    title: m.title,
    description: m.description,
    version: row.version,
    visibility: row.visibility,
    license: m.license,
    year: row.year,
    keywords: m.keywords,
    species: m.species,
    brain_regions: m.brain_regions,
    microscopy: m.microscopy,
    neurotransmitters: m.neurotransmitters,
  };
}
