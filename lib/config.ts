import { z } from 'zod';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SHIPPED_SEED_DIR } from './seed-files.js';

export const SUBGRAPH_NAMES = ['identity', 'neurodata', 'query', 'graph', 'ontology', 'federation'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
const optionalUrl = z.string().url().optional();
const emptyAsUndefined = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));

/**
 * Every environment variable the service reads, with its check, its default and the one-line description the
 * README table is generated from (in this order); a description says `{default}` where the default goes in the
 * README, which writes it from `.default()` (ENV_DOCS). Nothing else in the code base reads process.env.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development')
    .describe('development | production | test; production turns on strict CORS and requires explicit secrets'),
  HOST: z.string().default('127.0.0.1')
    .describe('interface the HTTP server binds to ({default}; use 0.0.0.0 in containers)'),
  PORT: int(8080)
    .describe('HTTP port ({default})'),
  DATA_DIR: z.string().default('./data')
    .describe('directory for embedded state: PGlite database, chDB tables, local objects, signing keys; it holds only what the service writes, so deleting it starts afresh ({default})'),
  SEED_DIR: z.string().optional()
    .describe('folder of the seed data loaded on a first start and by npm run seed (vocabularies, connectomes, morphologies, with their licences); a relative path is taken from the working directory (default: the seed/ folder shipped beside the code, wherever the service is started from)'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')
    .describe('pino log level: fatal, error, warn, info, debug, trace, silent ({default})'),
  API_DOMAIN: z.string().url().optional()
    .describe('the only CORS origin allowed in production, e.g. https://neurodata.example.org'),
  TRUST_PROXY: z.string().optional()
    .describe('comma-separated proxy addresses or CIDRs whose X-Forwarded-For is trusted for the client IP (default: none)'),
  RATE_LIMIT_BURST: int(300, 1)
    .describe('token-bucket size per client IP ({default} requests)'),
  RATE_LIMIT_REFILL_PER_SEC: z.coerce.number().positive().default(50)
    .describe('tokens added back per second per client IP ({default})'),
  PASSWORD_CHECK_BURST: int(30, 1)
    .describe('password checks and password registrations one client IP may make at once, across all accounts ({default})'),
  PASSWORD_CHECK_REFILL_PER_MIN: z.coerce.number().positive().default(10)
    .describe('password checks added back per minute per client IP ({default})'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional()
    .describe('Redis server that holds the rate limits and login throttles, shared by every replica, e.g. redis://127.0.0.1:6379; unset means per process'),
  REDIS_KEY_PREFIX: z.string().max(64).default('nd:')
    .describe('prefix of every key this service writes to REDIS_URL, so deployments can share one Redis ({default})'),
  REQUEST_TIMEOUT_MS: int(60_000, 1)
    .describe('per-request timeout before a 408 ({default})'),
  BODY_LIMIT_BYTES: int(100 * 1024 * 1024, 1)
    .describe('maximum request body before a 413, counted decompressed for a compressed body ({default} = 100 MB)'),
  BODY_LIMIT_BYTES_ANONYMOUS: int(1024 * 1024, 1)
    .describe('maximum JSON request body of a caller without a valid token (no Authorization header, or one that does not verify), counted decompressed; nothing a caller may do without signing in needs more ({default} = 1 MiB)'),
  GRAPHQL_MAX_ALIASES: int(15, 0)
    .describe('aliased fields one GraphQL operation may hold, on /graphql and /v1 alike ({default})'),
  GRAPHQL_MAX_DEPTH: int(12, 1)
    .describe('deepest selection one GraphQL operation may nest ({default})'),
  GRAPHQL_MAX_TOKENS: int(5000, 10)
    .describe('lexical tokens one GraphQL document may hold ({default})'),
  GRAPHQL_MAX_COST: int(20_000, 10)
    .describe('static cost of an operation: 1 per scalar and 2 per object field, weighted by depth ({default})'),
  GRAPHQL_MAX_ITEMS: int(10_000, 1)
    .describe('list items an operation may ask for, estimated from limit arguments multiplied along the selection ({default})'),
  GRAPHQL_MAX_LIST_VALUES: int(20_000, 1)
    .describe('values one GraphQL operation may send in list arguments (term validation terms, ids, ...), counted at every field and alias that receives them ({default})'),
  GRAPHQL_MAX_LIST_BYTES: int(1024 * 1024, 1)
    .describe('bytes the values of one operation\'s list arguments may hold, counted at every field and alias that receives them, for signed-in callers ({default} = 1 MiB)'),
  GRAPHQL_MAX_LIST_BYTES_ANONYMOUS: int(256 * 1024, 1)
    .describe('the same for callers without a token: a smaller budget for whoever is not signed in ({default} = 256 KiB)'),
  GRAPHQL_INTROSPECTION: z.enum(['true', 'false']).optional()
    .describe('true | false: answer GraphQL introspection (__schema, __type) at /graphql (default true, false in production)'),
  GATEWAY_DIRECT_EXECUTION: z.enum(['true', 'false']).default('true')
    .describe('true | false: run operations whose query plan is root fetches from in-process subgraphs on those subgraphs directly, with the same checks, limits, errors and answers as through Apollo Server and the gateway (docs/architecture.md); false sends every operation through them'),
  GRAPHQL_COMPILED_EXECUTION: z.enum(['true', 'false']).default('true')
    .describe('true | false: execute the operations sent to in-process subgraphs with graphql-jit, each compiled once into a function, instead of graphql-js\'s interpreter; the same resolvers, errors and answers (docs/architecture.md)'),
  API_DOCS: z.enum(['true', 'false']).optional()
    .describe('true | false: serve the interactive documentation at /docs and the GraphiQL explorer at GET /graphql (default true, false in production)'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional()
    .describe('PostgreSQL connection string; unset means embedded PGlite under DATA_DIR/pglite'),
  CLICKHOUSE_URL: optionalUrl
    .describe('ClickHouse HTTP endpoint, e.g. http://127.0.0.1:8123; unset means embedded chDB under DATA_DIR/chdb'),
  CLICKHOUSE_USER: z.string().default('default')
    .describe('ClickHouse user ({default})'),
  CLICKHOUSE_PASSWORD: z.string().default('')
    .describe('ClickHouse password ({default})'),
  CLICKHOUSE_DATABASE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier').default('neurodata')
    .describe('ClickHouse database, created when missing ({default})'),
  CHDB_MAX_MEMORY_MB: z.coerce.number().int().min(64).optional()
    .describe('memory the embedded column store (chDB) may hold across all its queries before it stops the one asking for more (default half of the machine\'s memory)'),
  CLICKHOUSE_CLUSTER: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier').optional()
    .describe('ClickHouse cluster name (from the servers\' remote_servers): data tables are created ON CLUSTER as local shards behind Distributed tables, sharded by dataset; unset means one server'),
  S3_BUCKET: z.string().optional()
    .describe('S3 bucket for objects; unset means the local directory DATA_DIR/objects'),
  S3_ENDPOINT: optionalUrl
    .describe('S3-compatible endpoint URL (MinIO, Ceph, ...); unset means AWS'),
  S3_REGION: z.string().default('us-east-1')
    .describe('S3 region ({default})'),
  S3_ACCESS_KEY_ID: z.string().optional()
    .describe('S3 access key id (default: the AWS SDK credential chain)'),
  S3_SECRET_ACCESS_KEY: z.string().optional()
    .describe('S3 secret access key'),
  SEED_DATASETS: z.enum(['true', 'false']).default('true')
    .describe('true | false: publish the shipped C. elegans connectomes and neuron morphologies on a first start ({default})'),
  UPLOAD_MAX_BYTES: int(2 * 1024 * 1024 * 1024, 1)
    .describe('largest dataset asset one upload may carry, streamed to object storage ({default} = 2 GiB); larger uploads (counted decompressed for a compressed upload) get a 413'),
  DATA_READS_MAX_CONCURRENT_PER_USER: int(2, 1)
    .describe('whole-table Arrow reads and synapse-table scans (neurons.arrow, connections.arrow, synapses, per-ROI connections) one user may run at once in this process; further ones get a 429 ({default})'),
  SYNAPSES_DERIVE_ON_UPLOAD_MAX: int(10_000_000, 0)
    .describe(
      "a draft of at most this many synapses has its per-ROI connections, counts and connections rebuilt after each upload ({default}); a larger one once, at publication, its draft's data reads answering 409 until then",
    ),
  PUBLISH_WAIT_MS: z.coerce.number().int().min(0).optional()
    .describe(
      "how long a publication waits for the derived tables a large draft put off before answering 409 while they are built on; unset: as long as the request may (REQUEST_TIMEOUT_MS less a second); set it below the timeout of a proxy in front of the service",
    ),
  UPLOAD_TIMEOUT_MS: int(30 * 60 * 1000, 1)
    .describe('deadline of one dataset file upload, streaming and ingestion included, instead of REQUEST_TIMEOUT_MS ({default} = 30 min)'),
  DOWNLOAD_URL_TTL_SECONDS: int(3600, 1)
    .describe('lifetime of the download URLs of POST /v1/neurodata/download-urls, pre-signed S3 or signed by this service ({default})'),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional()
    .describe('true for path-style bucket addressing, which most self-hosted S3 servers need (default true when S3_ENDPOINT is set)'),
  GRAPH_CACHE_MB: int(1024, 0)
    .describe('memory the graph engine may keep for connectome graphs it has built, least recently used dropped first ({default})'),
  JOBS_IN_PROCESS: z.enum(['true', 'false']).default('true')
    .describe('true | false: the server process runs jobs itself ({default}); false leaves them to separate npm run worker processes sharing DATABASE_URL'),
  JOBS_CONCURRENCY: int(2, 1)
    .describe('jobs one process (the server or one npm run worker) runs at once ({default})'),
  JOBS_PER_USER: int(1, 1)
    .describe('jobs of one user running at once across all workers; further ones wait queued, and queued jobs start in turns between users ({default}; below JOBS_CONCURRENCY when that is above 1, so one user never takes every slot)'),
  JOBS_HEARTBEAT_MS: int(5000, 10)
    .describe('how often a worker renews the lease of each job it runs and notices cancellations ({default})'),
  JOBS_LEASE_MS: int(30_000, 20)
    .describe('a running job whose lease was not renewed for this long lost its worker: it is retried or failed ({default}; at least twice JOBS_HEARTBEAT_MS)'),
  JOBS_POLL_MS: int(500, 10)
    .describe('how often an idle worker looks for queued jobs; a job enqueued in the same process starts at once ({default})'),
  JOBS_MAX_ATTEMPTS: int(2, 1)
    .describe('attempts a job gets when its worker stops under it (crash, kill -9) before it is failed ({default})'),
  JOBS_STOP_WAIT_MS: int(10_000, 0)
    .describe('how long a stopping process waits for its running jobs to finish before leaving them to the lease ({default})'),
  JOBS_QUEUED_PER_USER: int(20, 1)
    .describe('jobs one user may have queued or running at once; further submissions get a 429 ({default})'),
  JOBS_MAX_EXECUTION_SECONDS: int(600, 1)
    .describe('time limit of each column-store statement of a SyQL job ({default})'),
  JOBS_MAX_THREADS: int(1, 1)
    .describe('column-store threads each statement of a job may use, so jobs leave room for interactive queries ({default})'),
  SYQL_MAX_EXECUTION_SECONDS: int(30, 1)
    .describe('time limit of each column-store statement of an interactive SyQL query, never past the request deadline ({default})'),
  SYQL_MAX_MEMORY_MB: int(1024, 16)
    .describe('memory one SyQL statement (interactive or job) may use in the column store before it is stopped ({default})'),
  SYQL_MAX_ROWS_TO_READ: int(1_000_000_000, 1)
    .describe('table rows one SyQL statement may read ({default})'),
  SYQL_MAX_BYTES_TO_READ: int(100 * 1024 * 1024 * 1024, 1)
    .describe('table bytes one SyQL statement may read ({default} = 100 GiB)'),
  SYQL_MAX_RESULT_ROWS: int(100_000_000, 1)
    .describe('rows one SyQL job may write as its result ({default})'),
  SYQL_MAX_ESTIMATED_ROWS: int(1_000_000_000, 1)
    .describe('largest number of pattern matches the planner estimates a query may produce before it is refused unrun ({default})'),
  SYQL_MAX_CONCURRENT_PER_USER: int(2, 1)
    .describe('interactive SyQL queries (exec) one user may run at once in this process; further ones get a 429 ({default})'),
  TYPESENSE_URL: optionalUrl
    .describe('Typesense node URL, e.g. http://127.0.0.1:8108; unset means search is not configured (PostgreSQL full text is used)'),
  TYPESENSE_API_KEY: z.string().optional()
    .describe('Typesense API key (required with TYPESENSE_URL)'),
  HEALTH_TIMEOUT_MS: int(2000, 1)
    .describe('per-component timeout of the /health checks ({default})'),
  SUBGRAPH_IDENTITY_URL: optionalUrl
    .describe('URL of a separately served identity subgraph; unset means in-process'),
  SUBGRAPH_NEURODATA_URL: optionalUrl
    .describe('URL of a separately served neurodata subgraph; unset means in-process'),
  SUBGRAPH_QUERY_URL: optionalUrl
    .describe('URL of a separately served query subgraph; unset means in-process'),
  SUBGRAPH_GRAPH_URL: optionalUrl
    .describe('URL of a separately served graph subgraph; unset means in-process'),
  SUBGRAPH_ONTOLOGY_URL: optionalUrl
    .describe('URL of a separately served ontology subgraph; unset means in-process'),
  SUBGRAPH_FEDERATION_URL: optionalUrl
    .describe('URL of a separately served federation subgraph; unset means in-process'),
  SUBGRAPH_PORT: int(4001, 1)
    .describe('port of a subgraph served alone with npm run subgraph ({default})'),
  SUBGRAPHS_DISABLED: z.string().optional()
    .describe('comma-separated subgraphs this cluster does not serve (query, graph): their fields and routes are absent from its API'),
  CLUSTER_NAME: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, ., _ or -, starting with a letter or digit').optional()
    .describe('this cluster\'s name in a federation (letters, digits, ., _, -; default the host name)'),
  FEDERATION_PASSWORD: z.string().min(16, 'must be at least 16 characters').optional()
    .describe('password other clusters present to POST /v1/federation/register (at least 16 characters); unset means this cluster accepts no registrations'),
  FEDERATION_ALLOWED_HOSTS: z.string().optional()
    .describe('comma-separated host names (or *.domain patterns) cluster base URLs may use; unset means any host on a public address'),
  FEDERATION_ALLOWED_NETWORKS: z.string().optional()
    .describe('comma-separated CIDR ranges cluster addresses may be in although they are private, loopback or link-local (e.g. 10.0.0.0/8, 127.0.0.0/8); unset refuses all of these'),
  FEDERATION_ALLOW_HTTP: z.enum(['true', 'false']).default('false')
    .describe('true | false: accept plain http:// cluster base URLs ({default}: https only)'),
  FEDERATION_TIMEOUT_MS: int(10_000, 100)
    .describe('time limit of one call to another cluster, in ms ({default})'),
  FEDERATION_SEARCH_TIMEOUT_MS: int(5000, 100)
    .describe('how long a federated search waits for other clusters, in ms ({default}; never past the request deadline)'),
  FEDERATION_MAX_RESPONSE_BYTES: int(8 * 1024 * 1024, 1024)
    .describe('largest answer accepted from another cluster ({default})'),
  FEDERATION_RETRIES: int(2, 0)
    .describe('retries of a failed idempotent call to another cluster, with exponential backoff ({default})'),
  FEDERATION_PING_INTERVAL_SEC: int(60, 0)
    .describe('seconds between pings of every active cluster ({default}; 0 turns monitoring off)'),
  FEDERATION_REMOTE_ACCESS: z.enum(['User', 'Academic', 'none']).default('Academic')
    .describe('User | Academic | none: the highest access class a token issued by another active cluster gets here ({default}; none refuses such tokens)'),
  FEDERATION_REGISTER_BURST: int(10, 1)
    .describe('registration attempts one client address may make at once ({default}; refilled at one a minute)'),
  SERVICE_SECRET: z.string().min(16, 'must be at least 16 characters').optional()
    .describe('shared secret for POST /v1/user/auth/register-service; unset disables the route'),
  TOKEN_SECRET_KEY: z.string().startsWith('k4.secret.', 'must be a PASERK k4.secret key').optional()
    .describe('PASERK k4.secret signing key; required in production, generated under DATA_DIR/keys otherwise'),
  TOKEN_PUBLIC_KEYS: z.string().optional()
    .describe('extra comma-separated PASERK k4.public keys accepted for verification (key rotation, other clusters)'),
  SUPERUSER_EMAIL: z.string().optional()
    .describe('email of a SuperUser created (or promoted) on start when it does not exist yet; needs SUPERUSER_PASSWORD'),
  SUPERUSER_PASSWORD: z.string().optional()
    .describe('password of the SUPERUSER_EMAIL account when it is created; an existing account keeps its password'),
  PUBLIC_URL: z.string().url().optional()
    .describe('base URL browsers reach this service at, e.g. https://neurodata.example.org; login providers redirect to <PUBLIC_URL>/v1/user/authenticate/<provider>/callback (required with any OIDC_* or OAUTH_* provider)'),
  OIDC_INSTITUTIONAL_ISSUER: optionalUrl
    .describe('issuer URL of the institutional login federation (academic verification), e.g. https://cilogon.org; unset disables verification'),
  OIDC_INSTITUTIONAL_CLIENT_ID: z.string().optional()
    .describe('client id registered at the institutional provider (required with OIDC_INSTITUTIONAL_ISSUER)'),
  OIDC_INSTITUTIONAL_CLIENT_SECRET: z.string().optional()
    .describe('client secret for the institutional provider; unset means a public client (PKCE only)'),
  OIDC_INSTITUTIONAL_SCOPES: z.string().default('openid email')
    .describe('space-separated scopes for institutional login: openid, email and the provider userinfo scope ({default})'),
  OIDC_ORCID_ISSUER: z.string().url().default('https://orcid.org')
    .describe('issuer URL of the researcher-ID provider ({default}; https://sandbox.orcid.org for testing)'),
  OIDC_ORCID_CLIENT_ID: z.string().optional()
    .describe('client id registered at the researcher-ID provider; unset disables ORCID iD linking'),
  OIDC_ORCID_CLIENT_SECRET: z.string().optional()
    .describe('client secret for the researcher-ID provider; unset means a public client (PKCE only)'),
  OIDC_ORCID_SCOPES: z.string().default('openid')
    .describe('space-separated scopes for ORCID iD linking ({default})'),
  LOGIN_RETURN_URL: optionalUrl
    .describe('front-end page a completed social login (mode=redirect) sends the browser to with a single-use login_code; <PUBLIC_URL>/sign-in/complete for the service’s own pages (docs/web.md), e.g. https://neurodata.example.org/sign-in/complete; unset allows mode=json only'),
  OIDC_SOCIAL_ISSUER: optionalUrl
    .describe('issuer URL of the general social login provider (OpenID Connect), e.g. https://accounts.google.com (required with OIDC_SOCIAL_CLIENT_ID)'),
  OIDC_SOCIAL_CLIENT_ID: z.string().optional()
    .describe('client id registered at the general social login provider; unset disables it'),
  OIDC_SOCIAL_CLIENT_SECRET: z.string().optional()
    .describe('client secret for the general social login provider; unset means a public client (PKCE only)'),
  OIDC_SOCIAL_SCOPES: z.string().default('openid email profile')
    .describe('space-separated scopes for general social login ({default})'),
  OIDC_GITLAB_ISSUER: z.string().url().default('https://gitlab.com')
    .describe('issuer URL of the GitLab-style code-hosting login, e.g. a self-hosted https://gitlab.example.org ({default})'),
  OIDC_GITLAB_CLIENT_ID: z.string().optional()
    .describe('application id registered at the GitLab-style instance; unset disables GitLab login'),
  OIDC_GITLAB_CLIENT_SECRET: z.string().optional()
    .describe('application secret for the GitLab-style instance; unset means a public client (PKCE only)'),
  OIDC_GITLAB_SCOPES: z.string().default('openid read_user')
    .describe('space-separated scopes for GitLab login: read_user plus openid for the ID token ({default})'),
  OAUTH_GITHUB_CLIENT_ID: z.string().optional()
    .describe('client id of the GitHub-style OAuth app (code-hosting login, not OpenID Connect); unset disables GitHub login'),
  OAUTH_GITHUB_CLIENT_SECRET: z.string().optional()
    .describe('client secret of the GitHub-style OAuth app (github.com requires one even with PKCE)'),
  OAUTH_GITHUB_AUTHORIZATION_URL: z.string().url().default('https://github.com/login/oauth/authorize')
    .describe('authorization endpoint ({default}; GitHub Enterprise: https://<host>/login/oauth/authorize)'),
  OAUTH_GITHUB_TOKEN_URL: z.string().url().default('https://github.com/login/oauth/access_token')
    .describe('token endpoint ({default}; GitHub Enterprise: https://<host>/login/oauth/access_token)'),
  OAUTH_GITHUB_API_URL: z.string().url().default('https://api.github.com')
    .describe('REST API base URL for /user and /user/emails ({default}; GitHub Enterprise: https://<host>/api/v3)'),
  OAUTH_GITHUB_SCOPES: z.string().default('user:email')
    .describe('space-separated scopes for GitHub login; must include user:email (or user) so the primary email can be read ({default})'),
});

type Env = z.infer<typeof envSchema>;
export type EnvName = keyof typeof envSchema.shape;

/**
 * Each variable's description, with its default written from the schema's `.default()`: where the description says
 * `{default}`, else at its end. A variable without a description, or one that writes its default by hand, stops this
 * module from loading.
 */
export const ENV_DOCS = Object.fromEntries(
  Object.entries(envSchema.shape).map(([name, schema]) => {
    if (!schema.description) throw new Error(`${name} has no description in lib/config.ts`);
    const def = schema._zod.def as { type: string; defaultValue?: unknown };
    if (def.type !== 'default') return [name, schema.description];
    if (/\(default /.test(schema.description)) throw new Error(`${name}: its description writes its default by hand; write {default} where it goes`);
    const text = `default ${defaultText(def.defaultValue)}`;
    return [name, schema.description.includes('{default}') ? schema.description.replace('{default}', text) : `${schema.description} (${text})`];
  }),
) as Record<EnvName, string>;

/** A default as the README prints it: a string with a space quoted, the empty string as "empty". */
function defaultText(value: unknown): string {
  if (value === '') return 'empty';
  const text = String(value);
  return text.includes(' ') ? JSON.stringify(text) : text;
}

export type RelationalConfig = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
export type ColumnConfig =
  | {
      kind: 'chdb';
      dataDir: string;
      database: string;
      /** The embedded engine's memory across all its queries (its max_server_memory_usage); unset: the engine's default. */
      maxMemoryBytes?: number;
    }
  | {
      kind: 'clickhouse';
      url: string;
      user: string;
      password: string;
      database: string;
      /** Set: data tables are local shards on every node of this cluster, read and written through Distributed tables. */
      cluster?: string;
    };
export type ObjectsConfig =
  | {
      kind: 'local';
      dir: string;
      /**
       * A spool file (an object being written) untouched for longer than this was left by a process that died: every
       * writer stops at its deadline (UPLOAD_TIMEOUT_MS, JOBS_MAX_EXECUTION_SECONDS) well before.
       */
      spoolMaxAgeMs?: number;
    }
  | {
      kind: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
    };
export type SearchConfig = { kind: 'none' } | { kind: 'typesense'; url: string; apiKey: string };

/** The query subgraph's jobs (docs/jobs.md, "How jobs run"). */
export interface JobsConfig {
  /** The server process runs jobs too; off leaves them to `npm run worker` processes. */
  inProcess: boolean;
  /** Jobs one process runs at once. */
  concurrency: number;
  /** Jobs of one owner running at once, across every worker. */
  perUser: number;
  heartbeatMs: number;
  /** A running job without a heartbeat for this long is recovered (retried or failed). */
  leaseMs: number;
  pollMs: number;
  /** Attempts before a job whose worker stopped is failed; at least 1. */
  maxAttempts: number;
  /** How long stopping waits for running jobs before leaving them to the lease. */
  stopWaitMs: number;
  /** Jobs of one owner queued or running at once; submissions beyond it are refused (429). */
  queuedPerUser: number;
  /** Seconds each column-store statement of a job may run. */
  maxExecutionSeconds: number;
  /** Column-store threads per statement of a job. */
  maxThreads: number;
}

/** What one SyQL statement may cost in the column store (docs/syql.md, "Limits"). */
export interface SyqlLimitsConfig {
  /** Seconds per statement of an interactive query (never past the request's deadline). */
  maxExecutionSeconds: number;
  maxMemoryBytes: number;
  maxRowsToRead: number;
  maxBytesToRead: number;
  /** Rows a job's result may hold. */
  maxResultRows: number;
  /** Pattern matches the planner may estimate before it refuses the query unrun. */
  maxEstimatedRows: number;
  /** Interactive queries of one user running at once in one process. */
  maxConcurrentPerUser: number;
}

/** The subgraphs a cluster may leave out (SUBGRAPHS_DISABLED): nothing else needs their schema. */
export const OPTIONAL_SUBGRAPHS: readonly SubgraphName[] = ['query', 'graph'];

export interface FederationConfig {
  clusterName: string;
  /** Unset: registrations are refused. */
  password?: string;
  /** Host names or `*.domain` patterns; empty means any host. */
  allowedHosts: string[];
  /** CIDR ranges allowed although private, loopback or link-local. */
  allowedNetworks: string[];
  allowHttp: boolean;
  timeoutMs: number;
  searchTimeoutMs: number;
  maxResponseBytes: number;
  retries: number;
  /** 0: no background pings. */
  pingIntervalSec: number;
  /** The highest access class of a token issued by another cluster; 'none' refuses them. */
  remoteAccess: 'User' | 'Academic' | 'none';
  registerBurst: number;
}

/**
 * The providers that sign a user in (and can be linked to an account to do so): the GraphQL `provider` argument
 * and the path segment of their REST routes.
 */
export const SOCIAL_PROVIDERS = ['social', 'gitlab', 'github'] as const;
export type SocialProviderName = (typeof SOCIAL_PROVIDERS)[number];
/** The external login providers this service can use (spec 5.7); those that are not social attach evidence. */
export const LOGIN_PROVIDERS = ['institutional', 'orcid', ...SOCIAL_PROVIDERS] as const;
export type LoginProviderName = (typeof LOGIN_PROVIDERS)[number];
/** The one plain OAuth 2.0 provider (OAUTH_GITHUB_*); every other is OpenID Connect (OIDC_<NAME>_*), found by discovery. */
const OAUTH_PROVIDER = 'github';
const OIDC_PROVIDERS = LOGIN_PROVIDERS.filter((p): p is Exclude<LoginProviderName, typeof OAUTH_PROVIDER> => p !== OAUTH_PROVIDER);

export interface OidcProviderConfig {
  issuer: string;
  clientId: string;
  /** Unset: a public client that authenticates with PKCE alone. */
  clientSecret?: string;
  scopes: string[];
}
/** A plain OAuth 2.0 provider without discovery or ID tokens (GitHub-style): explicit endpoints and a user API. */
export interface OAuthProviderConfig {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Base URL of the REST API that answers `/user` and `/user/emails`. */
  apiUrl: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
}
export type LoginProviderConfig = OidcProviderConfig | OAuthProviderConfig;
export const isOidcProvider = (c: LoginProviderConfig): c is OidcProviderConfig => 'issuer' in c;

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly http: {
    host: string;
    port: number;
    apiDomain?: string;
    trustProxy: string[];
  };
  readonly limits: {
    rateLimitBurst: number;
    rateLimitRefillPerSec: number;
    /** Per client IP, across accounts: argon2 checks and hashes (login, registration, password and email changes). */
    passwordCheckBurst: number;
    passwordCheckRefillPerSec: number;
    /** Unset: counters live in each process. */
    redisUrl?: string;
    redisKeyPrefix: string;
    requestTimeoutMs: number;
    bodyLimitBytes: number;
    /** Body limit of a JSON request without an Authorization header (at most bodyLimitBytes). */
    anonymousBodyLimitBytes: number;
    healthTimeoutMs: number;
    /** Per GraphQL operation, on /graphql and every /v1 route (docs/architecture.md "Limits"). */
    operation: {
      maxAliases: number;
      maxDepth: number;
      maxTokens: number;
      maxCost: number;
      maxItems: number;
      /** Values of list arguments, counted at every field that receives them. */
      maxListInputValues: number;
      /** Bytes of those values, for signed-in callers and for anonymous ones. */
      maxListInputBytes: number;
      maxListInputBytesAnonymous: number;
    };
  };
  /** What the API tells about itself; both default to on outside production and off in production. */
  readonly api: {
    introspection: boolean;
    /** /docs and the GraphiQL page of GET /graphql. */
    docs: boolean;
    /** Single-subgraph operations skip Apollo Server and the gateway's plan execution (gateway/direct/). */
    directExecution: boolean;
    /** In-process subgraphs execute operations compiled by graphql-jit (gateway/local-data-source.ts). */
    compiledExecution: boolean;
  };
  readonly logLevel: string;
  readonly dataDir: string;
  /** The seed data's folder (SEED_DIR), absolute. */
  readonly seedDir: string;
  readonly relational: RelationalConfig;
  readonly column: ColumnConfig;
  readonly objects: ObjectsConfig;
  readonly search: SearchConfig;
  /** Dataset assets: the upload size limit and the lifetime of download URLs. */
  readonly assets: { uploadMaxBytes: number; uploadTimeoutMs: number; downloadUrlTtlSeconds: number; deriveOnUploadMaxSynapses: number; readsPerUser: number; publishWaitMs: number | null };
  /** Publish the shipped datasets on a first start. */
  readonly seedDatasets: boolean;
  /** The graph engine's memory for built graphs (docs/graph.md). */
  readonly graph: { cacheBytes: number };
  readonly jobs: JobsConfig;
  readonly syql: SyqlLimitsConfig;
  readonly subgraphs: { urls: Partial<Record<SubgraphName, string>>; port: number; disabled: SubgraphName[] };
  /** Federation with other clusters (docs/federation.md). */
  readonly federation: FederationConfig;
  readonly auth: {
    serviceSecret?: string;
    tokenSecretKey?: string;
    tokenPublicKeys: string[];
    /** First-start SuperUser (SUPERUSER_EMAIL and SUPERUSER_PASSWORD), when both are set. */
    bootstrapSuperUser?: { email: string; password: string };
  };
  /** Only configured providers are present; `publicUrl` is set whenever one is. */
  readonly login: {
    publicUrl?: string;
    providers: Partial<Record<LoginProviderName, LoginProviderConfig>>;
    /** Where a completed social login in redirect mode sends the browser (with a single-use login_code). */
    returnUrl?: string;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment once; every problem is reported together. Throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(emptyAsUndefined(env));
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  const e: Env = parsed.data;
  if (e.NODE_ENV === 'production') {
    if (!e.TOKEN_SECRET_KEY) problems.push('TOKEN_SECRET_KEY: required in production');
    if (!e.API_DOMAIN) problems.push('API_DOMAIN: required in production (the allowed CORS origin)');
  }
  if (e.TYPESENSE_URL && !e.TYPESENSE_API_KEY) problems.push('TYPESENSE_API_KEY: required with TYPESENSE_URL');
  if (e.S3_ENDPOINT && !e.S3_BUCKET) problems.push('S3_BUCKET: required with S3_ENDPOINT');
  if (Boolean(e.SUPERUSER_EMAIL) !== Boolean(e.SUPERUSER_PASSWORD)) problems.push('SUPERUSER_EMAIL and SUPERUSER_PASSWORD: set both or neither');
  // A lease shorter than two heartbeats expires under a live worker whenever one heartbeat is late.
  if (e.JOBS_LEASE_MS < 2 * e.JOBS_HEARTBEAT_MS) problems.push(`JOBS_LEASE_MS: must be at least twice JOBS_HEARTBEAT_MS (${e.JOBS_HEARTBEAT_MS})`);
  // A user who may fill every slot of a worker keeps every other user's job waiting as long as their own jobs run.
  if (e.JOBS_CONCURRENCY > 1 && e.JOBS_PER_USER >= e.JOBS_CONCURRENCY) {
    problems.push(`JOBS_PER_USER: must be below JOBS_CONCURRENCY (${e.JOBS_CONCURRENCY}), so that one user's jobs never take every slot of a worker`);
  }
  const login = loginConfig(e, problems);
  const disabled = listOf(e.SUBGRAPHS_DISABLED) as SubgraphName[];
  for (const name of disabled) {
    if (!OPTIONAL_SUBGRAPHS.includes(name)) problems.push(`SUBGRAPHS_DISABLED: ${name} cannot be left out (only ${OPTIONAL_SUBGRAPHS.join(', ')})`);
  }
  const allowedNetworks = listOf(e.FEDERATION_ALLOWED_NETWORKS);
  for (const cidr of allowedNetworks) if (!isCidr(cidr)) problems.push(`FEDERATION_ALLOWED_NETWORKS: ${cidr} is not a CIDR range such as 10.0.0.0/8`);
  const allowedHosts = listOf(e.FEDERATION_ALLOWED_HOSTS).map((h) => h.toLowerCase());
  for (const host of allowedHosts) if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) problems.push(`FEDERATION_ALLOWED_HOSTS: ${host} is not a host name or *.domain pattern`);
  const dataDir = path.resolve(e.DATA_DIR);
  const seedDir = e.SEED_DIR ? path.resolve(e.SEED_DIR) : SHIPPED_SEED_DIR;
  // Deleting the data directory is how a service starts afresh: it must not hold the seed data it starts from.
  if (seedDir === dataDir || seedDir.startsWith(`${dataDir}${path.sep}`)) {
    problems.push(`DATA_DIR: ${dataDir} holds the seed folder ${seedDir}; choose a directory for the service's own state only (default ./data)`);
  }
  if (problems.length) throw new ConfigError(problems);

  const urls: Partial<Record<SubgraphName, string>> = {};
  for (const name of SUBGRAPH_NAMES) {
    const url = e[`SUBGRAPH_${name.toUpperCase()}_URL` as keyof Env] as string | undefined;
    if (url) urls[name] = url;
  }
  const config: Config = {
    env: e.NODE_ENV,
    http: {
      host: e.HOST,
      port: e.PORT,
      apiDomain: e.API_DOMAIN,
      trustProxy: (e.TRUST_PROXY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    },
    limits: {
      rateLimitBurst: e.RATE_LIMIT_BURST,
      rateLimitRefillPerSec: e.RATE_LIMIT_REFILL_PER_SEC,
      passwordCheckBurst: e.PASSWORD_CHECK_BURST,
      passwordCheckRefillPerSec: e.PASSWORD_CHECK_REFILL_PER_MIN / 60,
      redisUrl: e.REDIS_URL,
      redisKeyPrefix: e.REDIS_KEY_PREFIX,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      anonymousBodyLimitBytes: Math.min(e.BODY_LIMIT_BYTES_ANONYMOUS, e.BODY_LIMIT_BYTES),
      healthTimeoutMs: e.HEALTH_TIMEOUT_MS,
      operation: {
        maxAliases: e.GRAPHQL_MAX_ALIASES,
        maxDepth: e.GRAPHQL_MAX_DEPTH,
        maxTokens: e.GRAPHQL_MAX_TOKENS,
        maxCost: e.GRAPHQL_MAX_COST,
        maxItems: e.GRAPHQL_MAX_ITEMS,
        maxListInputValues: e.GRAPHQL_MAX_LIST_VALUES,
        maxListInputBytes: e.GRAPHQL_MAX_LIST_BYTES,
        maxListInputBytesAnonymous: e.GRAPHQL_MAX_LIST_BYTES_ANONYMOUS,
      },
    },
    api: {
      introspection: e.GRAPHQL_INTROSPECTION ? e.GRAPHQL_INTROSPECTION === 'true' : e.NODE_ENV !== 'production',
      docs: e.API_DOCS ? e.API_DOCS === 'true' : e.NODE_ENV !== 'production',
      directExecution: e.GATEWAY_DIRECT_EXECUTION === 'true',
      compiledExecution: e.GRAPHQL_COMPILED_EXECUTION === 'true',
    },
    logLevel: e.LOG_LEVEL,
    dataDir,
    seedDir,
    relational: e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') },
    column: e.CLICKHOUSE_URL
      ? { kind: 'clickhouse', url: e.CLICKHOUSE_URL, user: e.CLICKHOUSE_USER, password: e.CLICKHOUSE_PASSWORD, database: e.CLICKHOUSE_DATABASE, cluster: e.CLICKHOUSE_CLUSTER }
      : {
          kind: 'chdb',
          dataDir: path.join(dataDir, 'chdb'),
          database: e.CLICKHOUSE_DATABASE,
          maxMemoryBytes: e.CHDB_MAX_MEMORY_MB ? e.CHDB_MAX_MEMORY_MB * 1024 * 1024 : Math.floor(os.totalmem() / 2),
        },
    objects: e.S3_BUCKET
      ? {
          kind: 's3',
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : Boolean(e.S3_ENDPOINT),
        }
      : { kind: 'local', dir: path.join(dataDir, 'objects'), spoolMaxAgeMs: 2 * Math.max(e.UPLOAD_TIMEOUT_MS, e.JOBS_MAX_EXECUTION_SECONDS * 1000) },
    search: e.TYPESENSE_URL ? { kind: 'typesense', url: e.TYPESENSE_URL, apiKey: e.TYPESENSE_API_KEY! } : { kind: 'none' },
    graph: { cacheBytes: e.GRAPH_CACHE_MB * 1024 * 1024 },
    jobs: {
      inProcess: e.JOBS_IN_PROCESS === 'true',
      concurrency: e.JOBS_CONCURRENCY,
      perUser: e.JOBS_PER_USER,
      heartbeatMs: e.JOBS_HEARTBEAT_MS,
      leaseMs: e.JOBS_LEASE_MS,
      pollMs: e.JOBS_POLL_MS,
      maxAttempts: e.JOBS_MAX_ATTEMPTS,
      stopWaitMs: e.JOBS_STOP_WAIT_MS,
      queuedPerUser: e.JOBS_QUEUED_PER_USER,
      maxExecutionSeconds: e.JOBS_MAX_EXECUTION_SECONDS,
      maxThreads: e.JOBS_MAX_THREADS,
    },
    syql: {
      maxExecutionSeconds: e.SYQL_MAX_EXECUTION_SECONDS,
      maxMemoryBytes: e.SYQL_MAX_MEMORY_MB * 1024 * 1024,
      maxRowsToRead: e.SYQL_MAX_ROWS_TO_READ,
      maxBytesToRead: e.SYQL_MAX_BYTES_TO_READ,
      maxResultRows: e.SYQL_MAX_RESULT_ROWS,
      maxEstimatedRows: e.SYQL_MAX_ESTIMATED_ROWS,
      maxConcurrentPerUser: e.SYQL_MAX_CONCURRENT_PER_USER,
    },
    assets: {
      uploadMaxBytes: e.UPLOAD_MAX_BYTES,
      uploadTimeoutMs: e.UPLOAD_TIMEOUT_MS,
      downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
      deriveOnUploadMaxSynapses: e.SYNAPSES_DERIVE_ON_UPLOAD_MAX,
      readsPerUser: e.DATA_READS_MAX_CONCURRENT_PER_USER,
      publishWaitMs: e.PUBLISH_WAIT_MS ?? null,
    },
    seedDatasets: e.SEED_DATASETS === 'true',
    subgraphs: { urls, port: e.SUBGRAPH_PORT, disabled },
    federation: {
      clusterName: e.CLUSTER_NAME ?? defaultClusterName(),
      password: e.FEDERATION_PASSWORD,
      allowedHosts,
      allowedNetworks,
      allowHttp: e.FEDERATION_ALLOW_HTTP === 'true',
      timeoutMs: e.FEDERATION_TIMEOUT_MS,
      searchTimeoutMs: e.FEDERATION_SEARCH_TIMEOUT_MS,
      maxResponseBytes: e.FEDERATION_MAX_RESPONSE_BYTES,
      retries: e.FEDERATION_RETRIES,
      pingIntervalSec: e.FEDERATION_PING_INTERVAL_SEC,
      remoteAccess: e.FEDERATION_REMOTE_ACCESS,
      registerBurst: e.FEDERATION_REGISTER_BURST,
    },
    auth: {
      serviceSecret: e.SERVICE_SECRET,
      tokenSecretKey: e.TOKEN_SECRET_KEY,
      tokenPublicKeys: (e.TOKEN_PUBLIC_KEYS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      bootstrapSuperUser: e.SUPERUSER_EMAIL && e.SUPERUSER_PASSWORD ? { email: e.SUPERUSER_EMAIL, password: e.SUPERUSER_PASSWORD } : undefined,
    },
    login,
  };
  return deepFreeze(config);
}

const listOf = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function isCidr(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  const family = net.isIP(address);
  return family !== 0 && Number(bits) <= (family === 4 ? 32 : 128);
}

/** The host name, made a valid cluster name. */
function defaultClusterName(): string {
  const name = os.hostname().replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return name || 'neurodata';
}

/** An issuer or endpoint must be https; plain http is allowed on loopback only (a provider on this host, tests). */
const isSecureUrl = (value: string) => {
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
};

/**
 * OIDC_<PROVIDER>_* and OAUTH_GITHUB_* -> provider settings. A provider is on when its client id is set; its other
 * keys without a client id are a mistake worth reporting rather than a silently disabled provider.
 */
function loginConfig(e: Env, problems: string[]): Config['login'] {
  const providers: Config['login']['providers'] = {};
  const read = (key: string) => e[key as keyof Env] as string | undefined;
  const scopesOf = (key: string) => String(read(key)).split(/[\s,]+/).filter(Boolean);
  for (const name of OIDC_PROVIDERS) {
    const prefix = `OIDC_${name.toUpperCase()}`;
    const issuer = read(`${prefix}_ISSUER`);
    const clientId = read(`${prefix}_CLIENT_ID`);
    const clientSecret = read(`${prefix}_CLIENT_SECRET`);
    const scopes = scopesOf(`${prefix}_SCOPES`);
    if (!clientId) {
      // ORCID and GitLab have a default issuer, so only an explicit one without a client id is a half configuration.
      if ((name === 'institutional' || name === 'social') && issuer) problems.push(`${prefix}_CLIENT_ID: required with ${prefix}_ISSUER`);
      if (clientSecret) problems.push(`${prefix}_CLIENT_ID: required with ${prefix}_CLIENT_SECRET`);
      continue;
    }
    if (!issuer) {
      problems.push(`${prefix}_ISSUER: required with ${prefix}_CLIENT_ID`);
      continue;
    }
    if (!isSecureUrl(issuer)) problems.push(`${prefix}_ISSUER: must be an https:// URL (http:// only on loopback)`);
    if (!scopes.includes('openid')) problems.push(`${prefix}_SCOPES: must include openid (got "${scopes.join(' ')}")`);
    providers[name] = { issuer, clientId, clientSecret, scopes };
  }
  const github = {
    clientId: read('OAUTH_GITHUB_CLIENT_ID'),
    clientSecret: read('OAUTH_GITHUB_CLIENT_SECRET'),
    authorizationEndpoint: read('OAUTH_GITHUB_AUTHORIZATION_URL')!,
    tokenEndpoint: read('OAUTH_GITHUB_TOKEN_URL')!,
    apiUrl: read('OAUTH_GITHUB_API_URL')!.replace(/\/+$/, ''),
    scopes: scopesOf('OAUTH_GITHUB_SCOPES'),
  };
  if (github.clientId) {
    for (const [key, value] of [
      ['OAUTH_GITHUB_AUTHORIZATION_URL', github.authorizationEndpoint],
      ['OAUTH_GITHUB_TOKEN_URL', github.tokenEndpoint],
      ['OAUTH_GITHUB_API_URL', github.apiUrl],
    ] as const) {
      if (!isSecureUrl(value)) problems.push(`${key}: must be an https:// URL (http:// only on loopback)`);
    }
    // Without one of these the emails API answers 404 and no account could ever be created.
    if (!github.scopes.includes('user:email') && !github.scopes.includes('user')) {
      problems.push(`OAUTH_GITHUB_SCOPES: must include user:email (or user) to read the primary email (got "${github.scopes.join(' ')}")`);
    }
    providers.github = { ...github, clientId: github.clientId };
  } else if (github.clientSecret) {
    problems.push('OAUTH_GITHUB_CLIENT_ID: required with OAUTH_GITHUB_CLIENT_SECRET');
  }
  if (Object.keys(providers).length && !e.PUBLIC_URL) problems.push('PUBLIC_URL: required when a login provider is configured (redirect URIs are built from it)');
  if (e.PUBLIC_URL && e.NODE_ENV === 'production' && !e.PUBLIC_URL.startsWith('https://')) problems.push('PUBLIC_URL: must be an https:// URL in production');
  if (e.LOGIN_RETURN_URL && e.NODE_ENV === 'production' && !e.LOGIN_RETURN_URL.startsWith('https://')) problems.push('LOGIN_RETURN_URL: must be an https:// URL in production');
  return { publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''), providers, returnUrl: e.LOGIN_RETURN_URL };
}

/** Builds a Config for tests and tools from overrides on top of the defaults, without touching process.env. */
export function configFrom(overrides: Partial<Record<EnvName, string>>): Config {
  return loadConfig(overrides);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/**
 * @apollo/gateway exports usage metrics to Apollo's servers, and probes cloud metadata endpoints (169.254.169.254)
 * to label them, unless APOLLO_TELEMETRY_DISABLED is set: a research cluster's service must not call out on its
 * own, so it is always set before a gateway is built.
 */
export function disableVendorTelemetry(): void {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
}
