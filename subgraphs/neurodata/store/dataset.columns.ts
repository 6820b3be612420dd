import { z } from 'zod';
import { col } from '../../../lib/db/rows.js';
import { ASSET_KINDS, type DatasetMetadata } from '../dataset.model.js';

// The jsonb documents of a dataset, as its tables and the search catalogue hold them.

/**
 * A metadata document. Every write builds it from checked fields (dataset-metadata.rules.ts), and documents written
 * before a field existed lack it (its readers default it), so it is read as stored.
 */
export const METADATA = col.json(z.custom<DatasetMetadata>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)));

const count = z.number();
/** Versions published before the synapse-level tables were stored without their counts: those read as 0. */
const synapseLevelCount = z.number().default(0);

/** A version's row counts as stored with it. */
export const ROW_COUNTS = col.json(
  z.object({
    neurons: count,
    connections: count,
    chemicalConnections: count,
    electricalConnections: count,
    morphologies: count,
    synapses: synapseLevelCount,
    roiConnections: synapseLevelCount,
    neuronAnnotations: synapseLevelCount,
    rois: synapseLevelCount,
    neuronRois: synapseLevelCount,
  }),
);

/** The asset records a version froze; their dates are ISO strings inside jsonb and come back as dates. */
export const FROZEN_ASSETS = col.json(
  z
    .array(
      z.object({
        id: z.string(),
        filename: z.string(),
        kind: z.enum(ASSET_KINDS),
        mediaType: z.string(),
        size: z.number(),
        sha256: z.string(),
        objectKey: z.string(),
        rows: z.number(),
        createdAt: col.timestamp,
      }),
    )
    .nullable()
    .transform((assets) => assets ?? []),
);

/** A free-form object (an asset's ingest summary, an event's details); none reads as empty. */
export const JSON_OBJECT = col.json(
  z
    .record(z.string(), z.unknown())
    .nullable()
    .transform((o) => o ?? {}),
);
