import { OutboundError, type GraphqlAnswer, type OutboundClient } from './outbound/client.js';

/**
 * The operations one cluster asks another, over the other's public GraphQL endpoint. Only these fixed documents are
 * ever sent, to `<registered base URL>/graphql`: nothing a cluster answers can make this one call another address.
 */
export const REMOTE_DOCUMENTS = {
  ping: 'query FederationPing { federationPing { name base_url version schema_hash time accepts_registrations } }',
  keys: 'query FederationKeys { tokenKeys { keys { kid public_key signing } } }',
  challenge: 'query FederationChallenge($nonce: String!, $audience: String!) { federationChallenge(nonce: $nonce, audience: $audience) { token cluster } }',
  schema: 'query FederationApiSchema { federationApiSchema { sdl hash } }',
  /** The standard read-only query of the query test and the search benchmark. */
  probe: 'query FederationProbe { federationPing { name version } searchDatasets(limit: 5, facets: false) { total limit offset items { dataset_id slug title version visibility url } } }',
} as const;

export interface RemotePing {
  name: string;
  base_url: string;
  version: string;
  schema_hash: string;
  time: string;
  accepts_registrations: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  retries?: number;
}

/** A GraphQL answer with errors (or without the data asked for) from another cluster. */
export class RemoteAnswerError extends OutboundError {
  constructor(message: string, status?: number) {
    super('bad_response', message, status);
  }
}

/** The data of an answer, or RemoteAnswerError naming the cluster's own error messages. */
export function dataOf<T>(answer: GraphqlAnswer<T>, what: string): T {
  if (answer.errors.length || answer.data === null || answer.data === undefined) {
    const messages = answer.errors.map((e) => e.message).slice(0, 3).join('; ');
    throw new RemoteAnswerError(`${what}: the cluster answered ${messages ? `with errors: ${messages}` : 'without data'}`, answer.status);
  }
  return answer.data;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Typed calls to another cluster; each checks the shape of what it gets, since the other side is not trusted. */
export class RemoteCluster {
  constructor(private readonly client: OutboundClient) {}

  async ping(baseUrl: string, opts: CallOptions = {}): Promise<{ ping: RemotePing; answer: GraphqlAnswer<unknown> }> {
    const answer = await this.client.graphql<{ federationPing: RemotePing }>(baseUrl, REMOTE_DOCUMENTS.ping, {}, opts);
    const ping = dataOf(answer, 'ping').federationPing;
    if (!isObject(ping) || typeof ping.name !== 'string' || typeof ping.version !== 'string' || typeof ping.schema_hash !== 'string') {
      throw new RemoteAnswerError('ping: the answer does not have the shape of a federation ping');
    }
    return { ping, answer };
  }

  async keys(baseUrl: string, opts: CallOptions = {}): Promise<string[]> {
    const data = dataOf(await this.client.graphql<{ tokenKeys: { keys: { public_key: string }[] } }>(baseUrl, REMOTE_DOCUMENTS.keys, {}, opts), 'token keys');
    const keys = data.tokenKeys?.keys;
    if (!Array.isArray(keys) || keys.some((k) => !isObject(k) || typeof k.public_key !== 'string')) throw new RemoteAnswerError('token keys: the answer is not a list of keys');
    return keys.map((k) => k.public_key);
  }

  async challenge(baseUrl: string, nonce: string, audience: string, opts: CallOptions = {}): Promise<string> {
    const data = dataOf(await this.client.graphql<{ federationChallenge: { token: string } }>(baseUrl, REMOTE_DOCUMENTS.challenge, { nonce, audience }, opts), 'challenge');
    const token = data.federationChallenge?.token;
    if (typeof token !== 'string') throw new RemoteAnswerError('challenge: the answer has no signed token');
    return token;
  }

  async schema(baseUrl: string, opts: CallOptions = {}): Promise<{ sdl: string; hash: string }> {
    const data = dataOf(await this.client.graphql<{ federationApiSchema: { sdl: string; hash: string } }>(baseUrl, REMOTE_DOCUMENTS.schema, {}, opts), 'schema');
    const s = data.federationApiSchema;
    if (!isObject(s) || typeof s.sdl !== 'string' || typeof s.hash !== 'string') throw new RemoteAnswerError('schema: the answer has no SDL');
    return s;
  }

  async probe(baseUrl: string, opts: CallOptions = {}): Promise<GraphqlAnswer<unknown>> {
    return this.client.graphql(baseUrl, REMOTE_DOCUMENTS.probe, {}, opts);
  }

  /** Any document, for callers that bring their own (federated search); errors are the caller's to read. */
  async query<T>(baseUrl: string, document: string, variables: Record<string, unknown>, opts: CallOptions = {}): Promise<GraphqlAnswer<T>> {
    return this.client.graphql<T>(baseUrl, document, variables, opts);
  }
}

/** One line for a failed call, for reports and logs. */
export function callProblem(e: unknown): { kind: string; message: string } {
  if (e instanceof OutboundError) return { kind: e.kind, message: e.message };
  return { kind: 'error', message: (e as Error)?.message ?? String(e) };
}
