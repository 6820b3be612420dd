/**
 * Example values of request fields and parameters, by name. They appear in the document (and so in /docs "Try it
 * out" and generated clients' docs), and the conformance test sends them: each must be a value the server accepts.
 */
const EXAMPLE_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

export const FIELD_EXAMPLES: Record<string, unknown> = {
  email: 'ada@example.org',
  password: 'correct horse battery staple',
  new_password: 'correct horse battery staple 2',
  current_password: 'correct horse battery staple',
  display_name: 'Ada Lovelace',
  affiliation: 'Institute of Neuroinformatics',
  orcid: '0000-0002-1825-0097',
  bio: 'Connectomics of the mouse visual cortex',
  links: ['https://example.org/lab'],
  refresh_token: 'v4.public.refresh-token-from-login',
  login_code: 'login-code-from-the-callback',
  vocabulary: 'brain_region',
  code: 'MBA:382',
  label: 'Field CA1',
  description: 'Cornu Ammonis field 1 of the hippocampus',
  uri: 'http://purl.obolibrary.org/obo/MBA_382',
  synonyms: ['CA1'],
  metadata: { source: 'Allen Mouse Brain Atlas' },
  terms: ['hippocampus', 'Field CA1', 'Drosophila melanogaster'],
  csv_data: 'code,label,parent_code\nX:1,Example region,\n',
  q: 'hippocampus',
  search: 'hippocampus',
  limit: 20,
  offset: 0,
  include_deprecated: true,
  id: EXAMPLE_ID,
  term_id: EXAMPLE_ID,
  user_id: EXAMPLE_ID,
  parent_id: null,
  replaced_by: null,
  provider: 'github',
  mode: 'json',
  dataset_id: 'celegans_varshney_2011',
  base_url: 'https://neurodata.cluster-b.example.org',
  contact: 'operators@cluster-b.example.org',
  public_keys: ['k4.public.yYhsXa7q_1Hnai-sltgwyJjE9CPm3IQWATWSs9IwUx8'],
  cluster_id: EXAMPLE_ID,
  version: 'v1',
  collection_id: EXAMPLE_ID,
  asset_id: EXAMPLE_ID,
  request_id: EXAMPLE_ID,
  asset_ids: [EXAMPLE_ID],
  dataset_ids: ['celegans_varshney_2011'],
  title: 'C. elegans nerve ring connectome',
  slug: 'nerve_ring_connectome',
  species: ['Caenorhabditis elegans'],
  brain_regions: ['nerve ring'],
  microscopy: ['transmission electron microscopy (TEM)'],
  neurotransmitters: ['acetylcholine'],
  keywords: ['connectome', 'electron microscopy'],
  license: 'CC-BY-4.0',
  brain_region: ['Hippocampal region'],
  visibility: 'public',
  maintainer_ids: [],
  derived_from: 'celegans_varshney_2011',
  relation: 'reanalysis_of',
  note: 'first release',
  message: 'for a cross-dataset meta-analysis',
  format: 'json',
  source: 'AVAL',
  target: 'AVBR',
  sources: ['AVAL', 'AVAR'],
  neuron: 'AVAL',
  datasets: ['celegans_witvliet_2021_1', 'celegans_witvliet_2021_8'],
  reference: ['celegans_witvliet_2021_7', 'celegans_witvliet_2021_8'],
  reference_id: 'celegans_witvliet_2021_8',
  metric: 'reciprocity',
  max_hops: 2,
  per_node: ['AVAL'],
  null_model: { samples: 10, seed: 1 },
  top: 10,
  expires_in: 600,
  query: 'MATCH (a:Neuron)-[c:Chemical]->(b:Neuron) IN "celegans_cook_2019_male"@latest WHERE a.name STARTS WITH $prefix AND c.weight >= 5 RETURN a.name AS pre, b.name AS post, c.weight ORDER BY c.weight DESC LIMIT 100',
  parameters: { prefix: 'AVA' },
  query_id: 'ava-partners-1',
  max_rows: 100,
  analysis: 'full-analysis',
};

/** A schema with its example, when the name has one. */
export function withExample(name: string, schema: Record<string, unknown>): Record<string, unknown> {
  return name in FIELD_EXAMPLES && fits(FIELD_EXAMPLES[name], schema) ? { ...schema, examples: [FIELD_EXAMPLES[name]] } : schema;
}

/**
 * Whether an example of a field's name is a value of this field's schema: a name means different things in
 * different operations (`sources` is a list of cells for reachability, a neuron criteria object for an adjacency).
 */
function fits(example: unknown, schema: Record<string, unknown>): boolean {
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as Record<string, unknown>[]) : [schema];
  return branches.some((b) => {
    if (typeof b.$ref === 'string') return example !== null && typeof example === 'object' && !Array.isArray(example);
    const types = Array.isArray(b.type) ? (b.type as string[]) : typeof b.type === 'string' ? [b.type] : [];
    if (!types.length) return true;
    const kind = example === null ? 'null' : Array.isArray(example) ? 'array' : typeof example === 'number' ? (Number.isInteger(example) ? 'integer' : 'number') : typeof example;
    return types.includes(kind) || (kind === 'integer' && types.includes('number'));
  });
}
