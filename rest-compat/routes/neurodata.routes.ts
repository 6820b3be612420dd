import { AccessClass } from '../../lib/access.js';
import { errorResponse } from '../openapi/error-responses.js';
import type { Route } from '../route-table.js';

const versionParam = {
  name: 'version',
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description: 'latest (default), v1, 2, ... or draft (owners and maintainers)',
  example: 'latest',
};
const ds = '/v1/neurodata/datasets/{dataset_id}';
const listParam = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, maxItems: 1000 },
  style: 'form',
  explode: true,
  description: `${description}: values separated by commas, or the parameter repeated (at most 20 times); at most 1000 values`,
});
const neuronFilterParams = [
  listParam('neuron_ids', 'only these cells'),
  listParam('names', 'only cells of these names'),
  listParam('cell_class', 'only cells of these classes'),
  listParam('cell_type', 'only cells of these types'),
  { name: 'is_neuron', in: 'query', required: false, schema: { type: 'boolean' }, description: 'true: neurons only; false: the other cells only' },
];
const connectionFilterParams = [
  listParam('neuron_ids', 'only connections whose pre or post is one of these cells'),
  listParam('pre', 'only connections from these cells'),
  listParam('post', 'only connections to these cells'),
  { name: 'synapse_type', in: 'query', required: false, schema: { type: 'string', enum: ['chemical', 'electrical'] }, description: 'default both' },
  { name: 'min_weight', in: 'query', required: false, schema: { type: 'number', minimum: 0 }, description: 'only connections of at least this weight' },
  { name: 'roi', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 }, description: 'only synapses in this ROI tree count (none: outside every ROI); needs per-ROI connections' },
  { name: 'group_by', in: 'query', required: false, schema: { type: 'string', enum: ['roi'] }, description: 'roi: one row per pre, post and primary ROI (columns pre, post, roi, synapse_type, weight)' },
];
const synapseFilterParams = [
  listParam('neuron', 'only synapses with one of these neurons on either side'),
  listParam('pre', 'only synapses from these neurons'),
  listParam('post', 'only synapses onto these neurons'),
  { name: 'roi', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 }, description: 'only synapses in this ROI or its descendants; none: outside every ROI' },
  { name: 'bbox', in: 'query', required: false, schema: { type: 'string' }, description: 'x0,y0,z0,x1,y1,z1: only synapses in this box (corners inclusive), in unit', example: '0,0,0,1000,1000,1000' },
  { name: 'unit', in: 'query', required: false, schema: { type: 'string', enum: ['voxel', 'nm', 'um'] }, description: 'the unit of bbox; required with it', example: 'nm' },
  { name: 'min_confidence', in: 'query', required: false, schema: { type: 'number' } },
  { name: 'min_cleft_score', in: 'query', required: false, schema: { type: 'number' } },
  { name: 'min_connection_score', in: 'query', required: false, schema: { type: 'number' } },
  listParam('transmitter', 'only synapses of these predicted transmitters'),
];
/** Every matching row as an Arrow IPC stream: the JSON route's rows, unpaged. */
const rowsArrowRoute = (table: 'neurons' | 'connections' | 'synapses', handler: string, columns: string, parameters: unknown[]): Route => ({
  kind: 'handler',
  method: 'GET',
  path: `${ds}/${table}.arrow`,
  handler,
  access: AccessClass.Academic,
  longTransfer: true,
  tag: 'neurodata',
  summary: `Every matching ${table.slice(0, -1)} of a version (the filters of GET .../${table}) as an Apache Arrow IPC stream, in the same order, unpaged: ${columns}; the schema metadata names the dataset, version, query and service version`,
  openapi: {
    parameters: [versionParam, ...parameters],
    responses: {
      '200': {
        description: `the rows as an Apache Arrow IPC stream (columns ${columns}; ids as Utf8, exact)`,
        headers: {
          'Content-Length': { schema: { type: 'integer' } },
          'X-Checksum-SHA256': { schema: { type: 'string' }, description: 'SHA-256 of the stream, lower-case hex' },
          'X-Row-Count': { schema: { type: 'integer' }, description: 'rows in the stream' },
        },
        content: { 'application/vnd.apache.arrow.stream': { schema: { type: 'string', format: 'binary' } } },
      },
      '400': errorResponse(
        table === 'synapses'
          ? 'a bad filter (an unknown roi, a bbox without unit or one the dataset cannot place, a bad number, more than 1000 values in a list) or version'
          : 'a bad filter (an unknown synapse_type, a negative min_weight, more than 1000 values in a list, roi or group_by on a version without per-ROI connections) or version',
      ),
      '403': errorResponse('an account below Academic, or a restricted dataset you have no access to (the message says how to ask)'),
      '404': errorResponse('no such dataset or version, or not visible to you'),
      '409': errorResponse('the dataset has no published version yet'),
    },
  },
});

/**
 * Datasets and collections (spec 4.3, Academic; download-urls from 4.5). Regular users browse through the public
 * search; these routes need a verified academic account, as 4.3 lists them (docs/neurodata.md).
 */
export const neurodataRoutes: Route[] = [
  { kind: 'graphql', method: 'GET', path: '/v1/neurodata/datasets', field: 'Query.datasets', tag: 'neurodata', summary: 'Published datasets (restricted ones show metadata only) and your drafts: visibility, limit, offset' },
  { kind: 'graphql', method: 'POST', path: '/v1/neurodata/datasets', field: 'Mutation.createDataset', status: 201, bodyArg: 'input', tag: 'neurodata', summary: 'Create a dataset (a draft); species, brain_regions, microscopy and neurotransmitters are checked against the ontology', errors: [400] },
  { kind: 'graphql', method: 'GET', path: '/v1/neurodata/datasets/owned', field: 'Query.ownedDatasets', tag: 'neurodata', summary: 'Datasets you created' },
  { kind: 'graphql', method: 'GET', path: '/v1/neurodata/datasets/modifiable', field: 'Query.modifiableDatasets', tag: 'neurodata', summary: 'Datasets you may change (owner, maintainer; all for a SuperUser)' },
  { kind: 'graphql', method: 'GET', path: '/v1/neurodata/datasets/incomplete', field: 'Query.incompleteDatasets', tag: 'neurodata', summary: 'Your drafts that cannot be published yet, with what each lacks' },
  { kind: 'graphql', method: 'GET', path: ds, field: 'Query.dataset', tag: 'neurodata', summary: 'One dataset by id or slug' },
  { kind: 'graphql', method: 'PATCH', path: ds, field: 'Mutation.updateDataset', bodyArg: 'input', tag: 'neurodata', summary: 'Change metadata, visibility or maintainers; changes go into the open draft', errors: [400] },
  { kind: 'graphql', method: 'DELETE', path: ds, field: 'Mutation.deleteDataset', tag: 'neurodata', summary: 'Delete a dataset with its versions, data and files (owner or SuperUser)' },
  { kind: 'graphql', method: 'POST', path: `${ds}/publish`, field: 'Mutation.publishDataset', status: 201, tag: 'neurodata', summary: 'Publish the open draft as the next immutable version; optional {note}' },
  { kind: 'graphql', method: 'GET', path: `${ds}/versions`, field: 'Query.datasetVersions', tag: 'neurodata', summary: 'Published versions, newest first' },
  { kind: 'graphql', method: 'GET', path: `${ds}/versions/{version}`, field: 'Query.datasetVersion', tag: 'neurodata', summary: 'One published version: frozen metadata, files with checksums, row counts', errors: [400] },
  { kind: 'graphql', method: 'GET', path: `${ds}/provenance`, field: 'Query.datasetProvenance', tag: 'neurodata', summary: 'Who created, changed, published and derived what, and when (events and PROV-JSON)' },
  { kind: 'graphql', method: 'GET', path: `${ds}/lineage`, field: 'Query.datasetLineage', tag: 'neurodata', summary: 'Upstream and downstream datasets with versions; deleted ones flagged' },
  { kind: 'graphql', method: 'POST', path: `${ds}/lineage`, field: 'Mutation.declareDatasetLineage', status: 201, bodyArg: 'input', tag: 'neurodata', summary: 'Declare {derived_from, version?, relation?, description?}; cycles are refused', errors: [400] },
  { kind: 'graphql', method: 'GET', path: `${ds}/draft`, field: 'Query.datasetDraft', tag: 'neurodata', summary: "The open draft: rows per table, its synapses (with both partners, points only, partners that are not neurons), the file being ingested with its progress, and what publishing still needs" },
  { kind: 'graphql', method: 'GET', path: `${ds}/assets`, field: 'Query.datasetAssets', tag: 'neurodata', summary: 'Files of a version (?version=latest|vN|draft)', errors: [400] },
  { kind: 'graphql', method: 'GET', path: `${ds}/neurons`, field: 'Query.datasetNeurons', tag: 'neurodata', summary: 'Neurons (and other cells) of a version (?version=latest|vN|draft), ordered by neuron_id, a page at a time with their total: neuron_ids, names, cell_class, cell_type, is_neuron, limit, offset; every row at once: format=arrow or .../neurons.arrow', errors: [400], arrow: `${ds}/neurons.arrow` },
  {
    kind: 'graphql',
    method: 'GET',
    path: `${ds}/connections`,
    field: 'Query.datasetConnections',
    tag: 'neurodata',
    summary:
      'Connections of a version as stored, ordered by pre, post, synapse_type, a page at a time with their total: neuron_ids, pre, post, synapse_type, min_weight, limit, offset; roi (only synapses in that ROI tree count) and group_by=roi from per-ROI connections; every row at once: format=arrow or .../connections.arrow',
    errors: [400],
    arrow: `${ds}/connections.arrow`,
  },
  {
    kind: 'graphql',
    method: 'GET',
    path: `${ds}/synapses`,
    field: 'Query.datasetSynapses',
    tag: 'neurodata',
    summary:
      'Synapses of a version ordered by pre, post, synapse_id, a page at a time (limit, after=next) with their total: neuron, pre, post, roi, bbox with unit, min_confidence, min_cleft_score, min_connection_score, transmitter; every row at once: format=arrow or .../synapses.arrow',
    errors: [400],
    arrow: `${ds}/synapses.arrow`,
  },
  { kind: 'graphql', method: 'GET', path: `${ds}/rois`, field: 'Query.datasetRois', tag: 'neurodata', summary: 'The ROI hierarchy of a version with pre and post synapse counts per ROI (non-primary ROIs: the sum over their primary descendants) and outside every ROI', errors: [400] },
  {
    kind: 'graphql',
    method: 'POST',
    path: `${ds}/neurons/search`,
    field: 'Query.datasetNeuronSearch',
    tag: 'neurodata',
    summary:
      'Neurons by criteria (a JSON body: version, criteria {ids, where [{field, values | regex}], rois, input_rois, output_rois, roi_req, min_roi_inputs, min_roi_outputs, min_pre, min_post, soma_bbox with unit}, limit, after), in neuron_id order with their annotations and per-ROI counts, a page at a time with total and truncated; every match at once: format=arrow or POST .../neurons/search.arrow',
    errors: [400],
    arrow: `${ds}/neurons/search.arrow`,
  },
  {
    kind: 'graphql',
    method: 'POST',
    path: `${ds}/connectivity/adjacency`,
    field: 'Query.datasetAdjacency',
    tag: 'neurodata',
    summary:
      "The connections from one neuron set to another (neuprint-python's fetch_adjacencies; a JSON body: version, sources and targets as criteria, rois, min_roi_weight, min_total_weight, transmitter, group_by_roi, limit, after): weights per ROI with the bucket outside every primary ROI, so a pair's rows add up to its weight, or per pair; a page at a time with total, total_weight and truncated; every row at once: format=arrow or POST .../connectivity/adjacency.arrow",
    errors: [400],
    arrow: `${ds}/connectivity/adjacency.arrow`,
  },
  {
    kind: 'graphql',
    method: 'POST',
    path: `${ds}/connectivity/common-partners`,
    field: 'Query.datasetCommonPartners',
    tag: 'neurodata',
    summary:
      "The partners every neuron of a set connects with (neuprint-python's fetch_common_connectivity; a JSON body: version, criteria, direction upstream or downstream, rois, min_weight per member, limit, after), by neuron_id with their weight to or from the set, a page at a time with members, total and truncated",
    errors: [400],
  },
  {
    kind: 'graphql',
    method: 'POST',
    path: `${ds}/connectivity/by-field`,
    field: 'Query.datasetConnectivityByField',
    tag: 'neurodata',
    summary:
      'Connectivity aggregated by a field of the neurons on each side (type × type by default, class × class, ...; a JSON body: version, row_field, column_field and the adjacency fields sources, targets, rois, min_total_weight, transmitter, limit, after): one row per pair of values with its weight and connected pairs, by the two values, a page at a time with total and truncated',
    errors: [400],
  },
  { kind: 'graphql', method: 'GET', path: `${ds}/neurons/fields`, field: 'Query.datasetNeuronFields', tag: 'neurodata', summary: "The fields a version's neurons can be searched by (its annotations', typed and the source's other columns, or its neurons table's), each with how many neurons have it, its distinct values and its commonest ones", errors: [400] },
  { kind: 'graphql', method: 'GET', path: `${ds}/neurons/{neuron_id}`, field: 'Query.datasetNeuron', tag: 'neurodata', summary: "One neuron: its neurons row, annotations (instance, type, class, ..., soma), the source's other columns (extra) and synapse counts per ROI", errors: [400] },
  { kind: 'graphql', method: 'DELETE', path: `${ds}/assets/{asset_id}`, field: 'Mutation.removeDatasetAsset', tag: 'neurodata', summary: 'Remove a file (and its rows) from the open draft' },
  { kind: 'graphql', method: 'POST', path: `${ds}/access/request`, field: 'Mutation.requestDatasetAccess', status: 201, tag: 'neurodata', summary: "Ask for access to a restricted dataset's data; optional {message}", errors: [400] },
  { kind: 'graphql', method: 'GET', path: `${ds}/access`, field: 'Query.datasetAccess', tag: 'neurodata', summary: 'Your access and request status; owners and maintainers also see every request' },
  { kind: 'graphql', method: 'POST', path: `${ds}/access/requests/{request_id}/approve`, field: 'Mutation.approveAccessRequest', tag: 'neurodata', summary: 'Approve an access request (owner, maintainers); optional {message}', errors: [400] },
  { kind: 'graphql', method: 'POST', path: `${ds}/access/requests/{request_id}/deny`, field: 'Mutation.denyAccessRequest', tag: 'neurodata', summary: 'Deny (or revoke) an access request (owner, maintainers); optional {message}', errors: [400] },
  { kind: 'graphql', method: 'GET', path: '/v1/neurodata/collections', field: 'Query.collections', tag: 'neurodata', summary: 'Your collections and the public ones' },
  { kind: 'graphql', method: 'POST', path: '/v1/neurodata/collections', field: 'Mutation.createCollection', status: 201, bodyArg: 'input', tag: 'neurodata', summary: 'Create a collection {title, description?, visibility?, dataset_ids?}', errors: [400] },
  { kind: 'graphql', method: 'GET', path: '/v1/neurodata/collections/{collection_id}', field: 'Query.collection', tag: 'neurodata', summary: 'One collection with its datasets' },
  { kind: 'graphql', method: 'DELETE', path: '/v1/neurodata/collections/{collection_id}', field: 'Mutation.deleteCollection', tag: 'neurodata', summary: 'Delete a collection (its datasets stay)' },
  { kind: 'graphql', method: 'PUT', path: '/v1/neurodata/collections/{collection_id}/datasets/{dataset_id}', field: 'Mutation.addDatasetToCollection', tag: 'neurodata', summary: 'Add a dataset to a collection' },
  { kind: 'graphql', method: 'DELETE', path: '/v1/neurodata/collections/{collection_id}/datasets/{dataset_id}', field: 'Mutation.removeDatasetFromCollection', tag: 'neurodata', summary: 'Remove a dataset from a collection' },
  { kind: 'graphql', method: 'POST', path: '/v1/neurodata/download-urls', field: 'Mutation.createDownloadUrls', bodyArg: 'input', tag: 'neurodata', summary: 'Expiring download URLs of a version\'s files: {dataset_id, version?, asset_ids?, expires_in?}', errors: [400] },
  {
    kind: 'handler',
    method: 'POST',
    path: `${ds}/assets`,
    handler: 'datasetUpload',
    access: AccessClass.Academic,
    streamBody: true,
    tag: 'neurodata',
    summary:
      'Upload files to the open draft, streamed: a raw body with ?filename= (or Content-Disposition), or multipart/form-data; neurons/connections CSV, SWC and synapse-level tables (synapses*, connections*, neurons*, classification*, rois* as CSV, Arrow/Feather or Parquet) are validated and ingested',
    openapi: {
      parameters: [
        { name: 'filename', in: 'query', required: false, schema: { type: 'string' }, description: 'the file name, for a raw body', example: 'neurons.csv' },
        {
          name: 'mapping',
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: 'a synapse-level table of another layout: JSON object from field names to its columns',
          example: '{"pre": "source", "post": "target", "roi": "region"}',
        },
      ],
      requestBody: {
        required: true,
        content: {
          'text/csv': { schema: { type: 'string' } },
          'text/plain': { schema: { type: 'string' } },
          'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
          'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } } } },
        },
      },
      responses: {
        '201': {
          description: 'the files as attached to the draft',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['dataset_id', 'version', 'items'],
                properties: { dataset_id: { type: 'string' }, version: { type: 'integer' }, items: { type: 'array', items: { $ref: '#/components/schemas/DatasetAsset' } } },
              },
            },
          },
        },
        '400': errorResponse('no file, a malformed file (the message names the file, line and problem; SWC coordinates beyond ±1e7 or radii outside 0 to 1e5), a bad file name, or a compressed body that does not decompress'),
        '404': errorResponse('no such dataset, or not visible to you'),
        '409': errorResponse('a file of another kind has that name, the draft already has a neurons/connections file (or ROI hierarchy) under another name, another file is being ingested into the draft, or the file mixes C. elegans and synapse-level tables'),
        '413': errorResponse('the file exceeds UPLOAD_MAX_BYTES (a compressed upload counts its decompressed bytes)'),
        '415': errorResponse('a Content-Encoding other than gzip, deflate or br, or a compressed multipart body'),
      },
    },
  },
  {
    kind: 'handler',
    method: 'GET',
    path: `${ds}/assets/{asset_id}/content`,
    handler: 'datasetAssetContent',
    access: AccessClass.Academic,
    tag: 'neurodata',
    summary: 'Download one file: a redirect to a short-lived download URL',
    openapi: {
      responses: {
        '302': { description: 'Location: the download URL', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
        '400': errorResponse('bad asset id'),
        '404': errorResponse('no such dataset or file'),
        '409': errorResponse('the dataset has no published version'),
      },
    },
  },
  rowsArrowRoute('neurons', 'datasetNeuronsArrow', 'neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region, x, y, z', neuronFilterParams),
  {
    kind: 'handler',
    method: 'POST',
    path: `${ds}/neurons/search.arrow`,
    handler: 'datasetNeuronSearchArrow',
    access: AccessClass.Academic,
    // A read whose criteria travel in the body: a read token may run it, as the JSON route.
    tokenNeed: 'read',
    longTransfer: true,
    tag: 'neurodata',
    summary:
      'Every neuron that matches criteria (the JSON body of POST .../neurons/search: version, criteria) as an Apache Arrow IPC stream in neuron_id order, unpaged: part=neurons (the default: neuron_id, the searched fields, pre, post) or part=roi_counts (neuron_id, roi, pre, post, upstream, downstream)',
    openapi: {
      parameters: [{ name: 'part', in: 'query', required: false, schema: { type: 'string', enum: ['neurons', 'roi_counts'] }, description: 'neurons (the default) or roi_counts' }],
      requestBody: {
        required: false,
        content: { 'application/json': { schema: { type: 'object', properties: { version: { type: 'string' }, criteria: { $ref: '#/components/schemas/NeuronCriteriaInput' } }, additionalProperties: false } } },
      },
      responses: {
        '200': {
          description:
            'the rows as an Apache Arrow IPC stream (part=neurons: neuron_id, then instance, type, class, super_class, sub_class, hemilineage, side, status, transmitter, transmitter_confidence, soma_x, soma_y, soma_z, extra for an annotated version or name, cell_class, cell_type, neurotransmitter, is_neuron, region, x, y, z for another, then pre and post; part=roi_counts: neuron_id, roi, pre, post, upstream, downstream; ids as Utf8, exact)',
          headers: {
            'Content-Length': { schema: { type: 'integer' } },
            'X-Checksum-SHA256': { schema: { type: 'string' }, description: 'SHA-256 of the stream, lower-case hex' },
            'X-Row-Count': { schema: { type: 'integer' }, description: 'rows in the stream' },
          },
          content: { 'application/vnd.apache.arrow.stream': { schema: { type: 'string', format: 'binary' } } },
        },
        '400': errorResponse('bad criteria (an unknown field, a bad regular expression, an unknown ROI, a box without a unit, ROI criteria on a version without ROI counts), a bad part or version'),
        '403': errorResponse('an account below Academic, or a restricted dataset you have no access to (the message says how to ask)'),
        '404': errorResponse('no such dataset or version, or not visible to you'),
        '409': errorResponse('the dataset has no published version yet'),
      },
    },
  },
  {
    kind: 'handler',
    method: 'POST',
    path: `${ds}/connectivity/adjacency.arrow`,
    handler: 'datasetAdjacencyArrow',
    access: AccessClass.Academic,
    tokenNeed: 'read',
    longTransfer: true,
    tag: 'neurodata',
    summary: 'Every row of POST .../connectivity/adjacency (its JSON body but limit and after) as an Apache Arrow IPC stream in pre, post, roi order, unpaged: pre, post, roi (empty outside every primary ROI, and when the rows are per pair), weight',
    openapi: {
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: {
                version: { type: 'string' },
                sources: { $ref: '#/components/schemas/NeuronCriteriaInput' },
                targets: { $ref: '#/components/schemas/NeuronCriteriaInput' },
                rois: { type: 'array', items: { type: 'string' } },
                min_roi_weight: { type: 'number' },
                min_total_weight: { type: 'number' },
                transmitter: { type: 'array', items: { type: 'string' } },
                group_by_roi: { type: 'boolean' },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'the rows as an Apache Arrow IPC stream (columns pre, post, roi, weight; ids as Utf8, exact)',
          headers: {
            'Content-Length': { schema: { type: 'integer' } },
            'X-Checksum-SHA256': { schema: { type: 'string' }, description: 'SHA-256 of the stream, lower-case hex' },
            'X-Row-Count': { schema: { type: 'integer' }, description: 'rows in the stream' },
          },
          content: { 'application/vnd.apache.arrow.stream': { schema: { type: 'string', format: 'binary' } } },
        },
        '400': errorResponse('bad criteria on either side (named sources or targets), an unknown ROI, a negative weight, or a version without per-ROI connections'),
        '403': errorResponse('an account below Academic, or a restricted dataset you have no access to (the message says how to ask)'),
        '404': errorResponse('no such dataset or version, or not visible to you'),
        '409': errorResponse('the dataset has no published version yet'),
      },
    },
  },
  rowsArrowRoute('connections', 'datasetConnectionsArrow', 'pre, post, synapse_type, weight (with group_by=roi: pre, post, roi, synapse_type, weight)', connectionFilterParams),
  rowsArrowRoute(
    'synapses',
    'datasetSynapsesArrow',
    'synapse_id, pre, post, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da',
    synapseFilterParams,
  ),
  {
    kind: 'handler',
    method: 'GET',
    path: `${ds}/citation`,
    handler: 'datasetCitation',
    access: AccessClass.Academic,
    tag: 'neurodata',
    summary: 'Citation as BibTeX (default) or RIS: ?format=bibtex|ris, or by Accept',
    openapi: {
      parameters: [versionParam, { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['bibtex', 'ris'] } }],
      responses: {
        '200': {
          description: 'the citation',
          content: { 'application/x-bibtex': { schema: { type: 'string' } }, 'application/x-research-info-systems': { schema: { type: 'string' } } },
        },
        '400': errorResponse('unknown format or version'),
        '404': errorResponse('no such dataset or version'),
      },
    },
  },
  {
    kind: 'handler',
    method: 'GET',
    path: `${ds}/metadata.jsonld`,
    handler: 'datasetJsonLd',
    access: AccessClass.Academic,
    tag: 'neurodata',
    summary: 'schema.org Dataset metadata as JSON-LD (creators, license, identifier, about, measurementTechnique, variableMeasured, distribution)',
    openapi: {
      parameters: [versionParam],
      responses: {
        '200': { description: 'the JSON-LD document', content: { 'application/ld+json': { schema: { type: 'object', additionalProperties: true } } } },
        '400': errorResponse('bad version'),
        '404': errorResponse('no such dataset or version'),
      },
    },
  },
  {
    kind: 'handler',
    method: 'GET',
    path: '/v1/neurodata/files',
    handler: 'signedDownload',
    access: AccessClass.Public,
    tag: 'neurodata',
    summary: 'A file behind a signed, expiring download URL (no token needed; the URL is the credential); Range requests supported',
    openapi: {
      parameters: [{ name: 'grant', in: 'query', required: true, schema: { type: 'string' }, description: 'the signed grant the download URL carries' }],
      responses: {
        '200': { description: 'the file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        '206': { description: 'the requested range', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        '400': errorResponse('the grant is missing'),
        '403': errorResponse('the URL expired, its signature is wrong, or the account it was issued to may no longer read the data'),
        '404': errorResponse('the file no longer exists'),
        '416': errorResponse('the range cannot be satisfied'),
      },
    },
  },
];
