import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { AssetRecord, DatasetMetadata, RowCounts } from '../dataset.model.js';

/** The neurodata subgraph's Postgres schema. Connectome rows live in the column store (store/clickhouse/). */
export const neurodata = pgSchema('neurodata');

/**
 * A dataset and its editable metadata (the open draft's, or the last published version's when nothing changed
 * since). Owners and maintainers are identity's account ids; terms inside `metadata` keep their id and code.
 */
export const datasets = neurodata.table(
  'datasets',
  {
    id: uuid().primaryKey(),
    /** Short stable name (lower case, digits, _ and -), for dataset@version references such as celegans_varshney_2011@v1. */
    slug: text().notNull(),
    title: text().notNull(),
    metadata: jsonb().$type<DatasetMetadata>().notNull(),
    ownerId: uuid().notNull(),
    maintainerIds: uuid().array().notNull().default(sql`'{}'::uuid[]`),
    /** public | restricted */
    visibility: text().notNull(),
    /** draft (never published) | published */
    status: text().notNull(),
    latestVersion: integer(),
    /** The version number the open draft will get when published; null when nothing changed since the last publication. */
    draftVersion: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
    publishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    unique('datasets_slug_unique').on(t.slug),
    index('datasets_owner_id_idx').on(t.ownerId),
    index('datasets_maintainer_ids_idx').using('gin', t.maintainerIds),
    check('datasets_visibility_check', sql`${t.visibility} in ('public', 'restricted')`),
    check('datasets_status_check', sql`${t.status} in ('draft', 'published')`),
  ],
);

/**
 * Slugs a dataset was known by before a release renamed it (a shipped dataset whose slug was corrected): a request
 * by one resolves to the dataset, unless another dataset holds that slug as its own now.
 */
export const datasetSlugAliases = neurodata.table(
  'dataset_slug_aliases',
  {
    slug: text().primaryKey(),
    datasetId: uuid()
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('dataset_slug_aliases_dataset_id_idx').on(t.datasetId)],
);

/** An immutable published version: the metadata, asset list and row counts frozen at publication. */
export const datasetVersions = neurodata.table(
  'dataset_versions',
  {
    datasetId: uuid()
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    metadata: jsonb().$type<DatasetMetadata>().notNull(),
    assets: jsonb().$type<AssetRecord[]>().notNull(),
    rowCounts: jsonb().$type<RowCounts>().notNull(),
    note: text(),
    publishedAt: timestamp({ withTimezone: true }).notNull(),
    publishedBy: uuid().notNull(),
  },
  (t) => [primaryKey({ columns: [t.datasetId, t.version] })],
);

/**
 * Files of a version, draft or published. Objects are content-addressed per dataset, so a file carried from one
 * version to the next is stored once.
 */
export const datasetAssets = neurodata.table(
  'dataset_assets',
  {
    id: uuid().primaryKey(),
    datasetId: uuid()
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    filename: text().notNull(),
    /** neurons | connections | morphology | synapses | roi_connections | annotations | rois | other */
    kind: text().notNull(),
    mediaType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    sha256: text().notNull(),
    objectKey: text().notNull(),
    rows: integer().notNull().default(0),
    /** What ingestion found (statistics, ignored columns, warnings). */
    summary: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdBy: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    unique('dataset_assets_version_filename_unique').on(t.datasetId, t.version, t.filename),
    index('dataset_assets_object_key_idx').on(t.objectKey),
    check('dataset_assets_kind_check', sql`${t.kind} in ('neurons', 'connections', 'morphology', 'synapses', 'roi_connections', 'annotations', 'rois', 'other')`),
  ],
);

/**
 * The file a dataset's draft is ingesting now, with its progress: at most one per dataset, so two uploads never
 * write the same draft's column tables at once. The row lives while the ingest runs (its heartbeat renewed every
 * few seconds) and is removed when it ends; one whose heartbeat stopped belongs to a process that died, and the
 * next upload takes it over and first rebuilds the tables that ingest was writing.
 */
export const datasetIngests = neurodata.table('dataset_ingests', {
  datasetId: uuid()
    .primaryKey()
    .references(() => datasets.id, { onDelete: 'cascade' }),
  version: integer().notNull(),
  filename: text().notNull(),
  kind: text().notNull(),
  /** reading | deriving */
  stage: text().notNull(),
  rows: bigint({ mode: 'number' }).notNull().default(0),
  bytesRead: bigint({ mode: 'number' }).notNull().default(0),
  bytesTotal: bigint({ mode: 'number' }).notNull().default(0),
  startedBy: uuid().notNull(),
  startedAt: timestamp({ withTimezone: true }).notNull(),
  heartbeatAt: timestamp({ withTimezone: true }).notNull(),
});

/** A request to read a restricted dataset's data; one per requester and dataset, its status changing over time. */
export const accessRequests = neurodata.table(
  'access_requests',
  {
    id: uuid().primaryKey(),
    datasetId: uuid()
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    requesterId: uuid().notNull(),
    /** pending | approved | denied */
    status: text().notNull(),
    message: text(),
    responseMessage: text(),
    decidedBy: uuid(),
    decidedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    unique('access_requests_dataset_requester_unique').on(t.datasetId, t.requesterId),
    check('access_requests_status_check', sql`${t.status} in ('pending', 'approved', 'denied')`),
  ],
);

/**
 * "dataset was derived from source@version". The source is not a foreign key: when it is deleted the link stays,
 * shown as deleted, with the title it had.
 */
export const lineageLinks = neurodata.table(
  'lineage_links',
  {
    id: uuid().primaryKey(),
    datasetId: uuid()
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    sourceDatasetId: uuid().notNull(),
    sourceVersion: integer().notNull(),
    sourceTitle: text().notNull(),
    relation: text().notNull(),
    description: text(),
    createdBy: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    unique('lineage_links_unique').on(t.datasetId, t.sourceDatasetId, t.sourceVersion, t.relation),
    index('lineage_links_source_idx').on(t.sourceDatasetId),
  ],
);

/** Who did what to a dataset and when: the record PROV documents are built from. */
export const provenanceEvents = neurodata.table(
  'provenance_events',
  {
    id: uuid().primaryKey(),
    datasetId: uuid()
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    /** create | update | upload | remove_asset | publish | derive | access_request | access_decision */
    activity: text().notNull(),
    agentId: uuid().notNull(),
    version: integer(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('provenance_events_dataset_idx').on(t.datasetId, t.at)],
);

export const collections = neurodata.table(
  'collections',
  {
    id: uuid().primaryKey(),
    ownerId: uuid().notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    /** public | private */
    visibility: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('collections_owner_id_idx').on(t.ownerId), check('collections_visibility_check', sql`${t.visibility} in ('public', 'private')`)],
);

export const collectionItems = neurodata.table(
  'collection_items',
  {
    collectionId: uuid()
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    datasetId: uuid()
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    addedBy: uuid().notNull(),
    addedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.datasetId] }), index('collection_items_dataset_idx').on(t.datasetId)],
);

/**
 * A draft whose derived synapse-level tables (per-ROI connections, per-neuron ROI counts, the by-post copy,
 * connections) are behind its synapses: an upload to a draft of many synapses leaves them for publication to
 * rebuild once, instead of rebuilding them after every part file. The draft's data reads answer 409 meanwhile.
 */
export const draftDerivations = neurodata.table('draft_derivations', {
  datasetId: uuid()
    .primaryKey()
    .references(() => datasets.id, { onDelete: 'cascade' }),
  version: integer().notNull(),
  staleSince: timestamp({ withTimezone: true }).notNull(),
});
