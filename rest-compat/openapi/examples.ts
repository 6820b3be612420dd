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
};

/** A schema with its example, when the name has one. */
export function withExample(name: string, schema: Record<string, unknown>): Record<string, unknown> {
  return name in FIELD_EXAMPLES ? { ...schema, examples: [FIELD_EXAMPLES[name]] } : schema;
}
