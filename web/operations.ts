import type { FastifyRequest } from 'fastify';
import type { ExecutionResult } from 'graphql';
import type { RunOperation } from '../rest-compat/login-redirect.js';
import type { OperationResults, OperationVariables } from './operations.types.js';

/**
 * Every GraphQL operation the pages run, by its operation name, in one place: a test validates each against the
 * API schema (web/test/operations.test.ts), so a page cannot ask for a field the schema does not have. The types of
 * their answers and variables are generated from the schema and these texts (web/operations.types.ts, written by
 * npm run web:types), and the pages run them by name through `runsByName`.
 */

/**
 * A named fragment of the operations below. Interpolated into `operation` (or into another fragment's selection) it
 * stands for its spread, and the operation carries its definition: GraphQL wants every fragment an operation spreads
 * defined in the same document, and none defined that it does not spread. The generated types name each fragment's
 * type after it, so a selection said once here is typed once there.
 */
interface Fragment {
  readonly name: string;
  readonly definition: string;
  /** The fragments its own selection spreads. */
  readonly spreads: readonly Fragment[];
}

/** The template's text with each interpolated fragment as its spread. */
const spreading = (strings: TemplateStringsArray, spreads: readonly Fragment[]): string => strings.reduce((text, part, i) => `${text}...${spreads[i - 1]!.name}${part}`);

/** fragment(name, type)`selection`: the fragment `name` on the schema type `type`. */
const fragment =
  (name: string, on: string) =>
  (strings: TemplateStringsArray, ...spreads: Fragment[]): Fragment => ({ name, definition: `fragment ${name} on ${on} { ${spreading(strings, spreads)} }`, spreads });

/** An operation's text, followed by the definitions of exactly the fragments it spreads (also through other fragments), each once. */
function operation(strings: TemplateStringsArray, ...spreads: Fragment[]): string {
  const used = new Set<Fragment>();
  const use = (f: Fragment): void => {
    if (used.has(f)) return;
    used.add(f);
    f.spreads.forEach(use);
  };
  spreads.forEach(use);
  return [spreading(strings, spreads), ...[...used].map((f) => f.definition)].join('\n');
}

const TERM = fragment('TermFields', 'TermValue')`term_id code label vocabulary uri`;
// The public record (PublishedDataset) and the viewer's (Dataset) carry the same metadata, and no interface of the
// schema covers both: one fragment name with each record's type condition, which the generator types once (it
// refuses a name whose definitions would type differently).
const metadataOf = (record: 'PublishedDataset' | 'Dataset') => fragment('DatasetMetadataFields', record)`title description keywords license doi
  species { ${TERM} } brain_regions { ${TERM} } microscopy { ${TERM} } neurotransmitters { ${TERM} }
  creators { name orcid affiliation } related_publication { doi citation url year }`;
const PUBLISHED_METADATA = metadataOf('PublishedDataset');
const VIEWER_METADATA = metadataOf('Dataset');
const FACET = fragment('FacetCountFields', 'FacetCount')`value label count`;
const JOB_FIELDS = fragment('JobFields', 'Job')`job_id kind status progress progress_message error input created_at started_at finished_at result_rows result_bytes`;
const TOKEN_FIELDS = fragment('ApiTokenFields', 'ApiToken')`id name scope prefix created_at expires_at last_used_at last_used_ip revoked_at revoked_reason`;
const ACCOUNT_FIELDS = fragment('ManagedAccountFields', 'ManagedAccount')`id email display_name account_type created_at deactivated_at verification { method verified_by verified_at reason institution }`;
// A login and a refresh answer a TokenPair, a code exchange a SocialSession (the pair and more): one name, as above.
const tokenPairOf = (type: 'TokenPair' | 'SocialSession') => fragment('TokenPairFields', type)`access_token refresh_token expires_in refresh_expires_in`;
const TOKEN_PAIR = tokenPairOf('TokenPair');
const SOCIAL_TOKEN_PAIR = tokenPairOf('SocialSession');
/** What the account page asks with and without the ORCID link. */
const ACCOUNT_PAGE = fragment('AccountPageFields', 'Query')`profile { id email display_name account_type verified orcid verification { method verified_at reason institution } }
  institutionalVerification { verified institution email verified_at }
  loginMethods { has_password identities { provider username name email linked_at } }`;

export const OPERATIONS = {
  // The catalogue (Public, like search).
  cataloguePage: operation`query cataloguePage($q: String, $species: [String!], $brain_region: [String!], $microscopy: [String!], $neurotransmitter: [String!],
    $license: [String!], $year: String, $visibility: String, $limit: Int, $offset: Int) {
  searchDatasets(q: $q, species: $species, brain_region: $brain_region, microscopy: $microscopy, neurotransmitter: $neurotransmitter,
      license: $license, year: $year, visibility: $visibility, limit: $limit, offset: $offset) {
    total limit offset query corrected_query
    items { slug title version visibility license year
      species { label } brain_regions { label }
      highlight { title snippet }
      matched_terms { matched term_label annotation { label } }
      counts { neurons connections morphologies } }
    facets { species { ${FACET} } brain_region { ${FACET} } microscopy { ${FACET} }
      neurotransmitter { ${FACET} } license { ${FACET} } year { ${FACET} } visibility { ${FACET} } }
    interpreted { text term_id code label vocabulary matched_terms }
  }
}`,

  // A dataset's page. The public record: what anyone may see (Public, like search).
  datasetPage: operation`query datasetPage($slug: String!) { publishedDataset(slug: $slug) { dataset_id slug version visibility year ${PUBLISHED_METADATA}
  counts { neurons connections chemical_connections electrical_connections morphologies } can_read_data
  published_at version_published_at versions { version published_at note } citation citations { format filename } json_ld } }`,
  /** The dataset as the signed-in account sees it (Academic): its access, and the open draft for those who may change it. */
  datasetAsViewer: operation`query datasetAsViewer($id: String!) { dataset(dataset_id: $id) { id slug status visibility latest_version draft_version ${VIEWER_METADATA}
  access { role can_read_data can_modify request_status } } }`,
  draftsMissing: 'query draftsMissing($offset: Int) { incompleteDatasets(limit: 200, offset: $offset) { total items { dataset { id } missing } } }',
  datasetFiles: 'query datasetFiles($id: String!, $version: String) { datasetAssets(dataset_id: $id, version: $version) { version draft items { id filename kind size sha256 rows } } }',
  datasetAccessOf: 'query datasetAccessOf($id: String!) { datasetAccess(dataset_id: $id) { request { status response_message created_at updated_at } } }',
  requestDatasetAccess: 'mutation requestDatasetAccess($id: String!, $message: String) { requestDatasetAccess(dataset_id: $id, message: $message) { status } }',
  publishDataset: 'mutation publishDataset($id: String!, $note: String) { publishDataset(dataset_id: $id, note: $note) { version } }',
  downloadUrl: 'mutation downloadUrl($input: DownloadUrlsInput!) { createDownloadUrls(input: $input) { urls { url } } }',
  datasetCitations: 'query datasetCitations($slug: String!) { publishedDataset(slug: $slug) { citations { format media_type filename text } } }',

  // Jobs.
  jobsPage: operation`query jobsPage($limit: Int, $offset: Int) { jobs(limit: $limit, offset: $offset) { total limit offset items { ${JOB_FIELDS} } } }`,
  jobStatus: operation`query jobStatus($job_id: String!) { job(job_id: $job_id) { ${JOB_FIELDS} } }`,
  deleteJob: 'mutation deleteJob($job_id: String!) { deleteJob(job_id: $job_id) { action status } }',

  // API tokens.
  tokensPage: operation`query tokensPage($include_revoked: Boolean) { profile { account_type verified } apiTokens(include_revoked: $include_revoked, limit: 100) { total items { ${TOKEN_FIELDS} } } }`,
  createApiToken: operation`mutation createApiToken($input: CreateApiTokenInput!) { createApiToken(input: $input) { token api_token { ${TOKEN_FIELDS} } } }`,
  revokeApiToken: 'mutation revokeApiToken($token_id: ID!) { revokeApiToken(token_id: $token_id) { name } }',

  // The account: its page asks for the ORCID link only where the server has ORCID linking.
  accountPage: operation`query accountPage { ${ACCOUNT_PAGE} }`,
  accountPageWithOrcid: operation`query accountPage { ${ACCOUNT_PAGE} orcidLink { linked orcid orcid_url linked_at } }`,
  unlinkOrcid: 'mutation unlinkOrcid { unlinkOrcid { linked } }',
  unlinkIdentity: 'mutation unlinkIdentity($provider: String!) { unlinkIdentity(provider: $provider) { has_password } }',
  loginMethods: 'query loginMethods { loginMethods { has_password } }',
  setPassword: 'mutation setPassword($new_password: String!, $current_password: String) { setPassword(new_password: $new_password, current_password: $current_password) { id } }',

  // Accounts, for a SuperUser.
  adminAccounts: operation`query adminAccounts($email: String, $limit: Int, $offset: Int) { accounts(email: $email, limit: $limit, offset: $offset) { total items { ${ACCOUNT_FIELDS} } } }`,
  verifyAccount: 'mutation verifyAccount($user_id: String!, $reason: String!) { verifyAccount(user_id: $user_id, reason: $reason) { changed message } }',
  unverifyAccount: 'mutation unverifyAccount($user_id: String!) { unverifyAccount(user_id: $user_id) { changed message } }',

  // Registration, sign-in and the browser session.
  registerAccount:
    'mutation registerAccount($email: String!, $password: String!, $display_name: String!) { registerAccount(email: $email, password: $password, display_name: $display_name) { id } }',
  login: operation`mutation login($email: String!, $password: String!) { login(email: $email, password: $password) { ${TOKEN_PAIR} } }`,
  exchangeLoginCode: operation`mutation exchangeLoginCode($login_code: String!) { exchangeLoginCode(login_code: $login_code) { ${SOCIAL_TOKEN_PAIR} account_created provider } }`,
  logout: 'mutation logout($refresh_token: String!) { logout(refresh_token: $refresh_token) { revoked } }',
  refreshSession: operation`mutation refreshSession($refresh_token: String!) { refreshSession(refresh_token: $refresh_token) { ${TOKEN_PAIR} } }`,
} as const;

export type OperationName = keyof typeof OPERATIONS;

/** An operation's answer: `data` holds its generated result type; it is complete only when `errors` is absent. */
export type OperationAnswer<N extends OperationName> = ExecutionResult<OperationResults[N]>;

/** The variables argument: optional for an operation whose variables are all optional. */
type VariablesArgument<N extends OperationName> = {} extends OperationVariables[N] ? [variables?: OperationVariables[N]] : [variables: OperationVariables[N]];

/** Runs one of OPERATIONS by its name, with its variables, answering with its result type. */
export type RunNamedOperation = <N extends OperationName>(request: FastifyRequest, name: N, ...variables: VariablesArgument<N>) => Promise<OperationAnswer<N>>;

/**
 * `run` for the pages: operations by name, answers typed from the schema. The one place an answer meets its type:
 * the operation's text is validated against the schema and its type generated from both, by tests that fail when
 * either is stale (web/test/operations.test.ts).
 */
export function runsByName(run: RunOperation): RunNamedOperation {
  return (request, name, ...[variables]) => run(request, OPERATIONS[name], variables) as Promise<OperationAnswer<typeof name>>;
}
