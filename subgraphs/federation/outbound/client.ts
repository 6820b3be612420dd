import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { performance } from 'node:perf_hooks';
import { checkBaseUrl, checkedLookup, type UrlPolicy } from './url-policy.js';

export type OutboundErrorKind = 'refused' | 'timeout' | 'unreachable' | 'too_large' | 'http' | 'bad_response' | 'aborted';

/** Why a call to another cluster failed; `status` is set for `http` (and for a refused redirect). */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundOptions {
  policy: UrlPolicy;
  /** Limit of one attempt, from connecting to the last byte of the body. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Extra attempts after a network failure, a timeout or HTTP 429/502/503/504. */
  retries: number;
  userAgent: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  retries?: number;
  headers?: Record<string, string>;
}

export interface TlsDetails {
  protocol: string | null;
  cipher: string | null;
  subject: string | null;
  issuer: string | null;
  valid_to: string | null;
  authorized: boolean;
}

export interface GraphqlAnswer<T = unknown> {
  data: T | null;
  errors: { message: string; extensions?: Record<string, unknown> }[];
  status: number;
  /** Duration of the attempt that answered. */
  latencyMs: number;
  bytes: number;
  tls: TlsDetails | null;
}

/** One HTTP exchange, before it is read as GraphQL. */
interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  latencyMs: number;
  tls: TlsDetails | null;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_KINDS = new Set<OutboundErrorKind>(['unreachable', 'timeout']);
const MAX_RETRY_AFTER_MS = 5_000;
// The caller must not change how the body is framed or which host is addressed.
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection']);
const TLS_REFUSALS = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_CERT_|HOSTNAME_MISMATCH)/;

/**
 * Calls `POST {baseUrl}/graphql` on other clusters, within the URL policy: every call re-checks the base URL, the
 * address actually connected to is checked by the lookup, redirects are refused, and each attempt is bounded in
 * time and in size.
 */
export class OutboundClient {
  constructor(private readonly opts: OutboundOptions) {}

  /**
   * Sends one GraphQL operation. Answers with HTTP 2xx or 4xx and a GraphQL body are returned with their errors;
   * everything else throws `OutboundError`. An abort of `signal` throws kind `aborted` at once, without retrying.
   */
  async graphql<T = unknown>(
    baseUrl: string,
    query: string,
    variables?: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<GraphqlAnswer<T>> {
    const checked = checkBaseUrl(baseUrl, this.opts.policy);
    if (!checked.ok) throw new OutboundError('refused', checked.reason);
    const target = new URL(`${checked.url}/graphql`);
    const body = Buffer.from(JSON.stringify({ query, variables: variables ?? {} }));
    const headers = this.headers(body.length, opts.headers);
    const retries = Math.max(0, opts.retries ?? this.opts.retries);
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs;

    for (let attempt = 0; ; attempt++) {
      throwIfAborted(opts.signal);
      const canRetry = attempt < retries;
      let raw: RawAnswer;
      try {
        raw = await this.exchange(target, headers, body, timeoutMs, opts.signal);
      } catch (err) {
        if (!(err instanceof OutboundError) || !canRetry || !RETRY_KINDS.has(err.kind)) throw err;
        await sleep(backoffMs(attempt, undefined), opts.signal);
        continue;
      }
      if (canRetry && RETRY_STATUSES.has(raw.status)) {
        await sleep(backoffMs(attempt, raw.headers['retry-after']), opts.signal);
        continue;
      }
      return readGraphql<T>(raw);
    }
  }

  private headers(length: number, extra: Record<string, string> = {}): Record<string, string> {
    const allowed = Object.entries(extra).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase()));
    return {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
      ...Object.fromEntries(allowed),
      // Node never decompresses, so a compressed answer would only look like a bad body.
      'accept-encoding': 'identity',
      'content-type': 'application/json',
      'content-length': String(length),
    };
  }

  /** One attempt: connect, send, read the whole body, all within `timeoutMs`. */
  private exchange(
    target: URL,
    headers: Record<string, string>,
    body: Buffer,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<RawAnswer> {
    const started = performance.now();
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<RawAnswer>((resolve, reject) => {
      let req: ClientRequest | undefined;
      let res: IncomingMessage | undefined;
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (err: OutboundError | null, answer?: RawAnswer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) {
          // Destroying the socket is what stops a slow or oversized answer from costing us more.
          res?.destroy();
          req?.destroy();
          reject(err);
        } else resolve(answer!);
      };
      const onAbort = () => finish(new OutboundError('aborted', `the call to ${target.host} was cancelled`));
      timer = setTimeout(
        () => finish(new OutboundError('timeout', `${target.host} did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });

      try {
        req = send(target, {
          method: 'POST',
          headers,
          // A fresh connection per call, so every call goes through the checking lookup and reports its own TLS.
          agent: false,
          lookup: checkedLookup(this.opts.policy),
        });
      } catch (err) {
        // Only a header the caller passed can make the request itself invalid.
        return finish(new OutboundError('refused', `the request could not be built: ${(err as Error).message}`));
      }
      req.on('error', (err) => finish(networkError(err, target)));
      req.on('response', (response) => {
        res = response;
        const problem = responseProblem(response, target, this.opts.maxResponseBytes);
        if (problem) return finish(problem);
        const tls = tlsDetails(response);
        readBody(response, this.opts.maxResponseBytes, target).then(
          (bytes) =>
            finish(null, {
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: bytes,
              latencyMs: performance.now() - started,
              tls,
            }),
          (err: OutboundError) => finish(err),
        );
      });
      req.end(body);
    });
  }
}

/** A problem visible from the status line and headers alone, before any of the body is read. */
function responseProblem(res: IncomingMessage, target: URL, maxBytes: number): OutboundError | null {
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    const location = res.headers.location ? ` (to ${res.headers.location})` : '';
    // Following a redirect would let a cluster send us to any URL, past the policy.
    return new OutboundError('refused', `redirects are not followed: ${target.host} answered ${status}${location}`, status);
  }
  const length = Number(res.headers['content-length']);
  if (Number.isFinite(length) && length > maxBytes) return tooLarge(target, maxBytes);
  return null;
}

function readBody(res: IncomingMessage, maxBytes: number, target: URL): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    res.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return reject(tooLarge(target, maxBytes));
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks, total)));
    res.on('aborted', () => reject(new OutboundError('unreachable', `${target.host} closed the connection mid-answer`)));
    res.on('error', (err) => reject(networkError(err, target)));
  });
}

function tooLarge(target: URL, maxBytes: number): OutboundError {
  return new OutboundError('too_large', `the answer of ${target.host} is larger than ${maxBytes} bytes`);
}

function networkError(err: NodeJS.ErrnoException, target: URL): OutboundError {
  const code = err.code ?? '';
  if (code === 'ERR_FEDERATION_ADDRESS_REFUSED') return new OutboundError('refused', err.message);
  if (TLS_REFUSALS.test(code)) {
    return new OutboundError('refused', `the TLS certificate of ${target.host} was not accepted (${code})`);
  }
  return new OutboundError('unreachable', `${target.host} could not be reached (${code || err.message})`);
}

/** The answer as GraphQL: a JSON object with `data` or `errors`, else an error by status. */
function readGraphql<T>(raw: RawAnswer): GraphqlAnswer<T> {
  const parsed = parseGraphqlBody(raw.body);
  const isGraphqlStatus = raw.status >= 200 && raw.status < 500;
  if (parsed && isGraphqlStatus) {
    return {
      data: (parsed.data ?? null) as T | null,
      errors: parsed.errors,
      status: raw.status,
      latencyMs: Math.round(raw.latencyMs),
      bytes: raw.body.length,
      tls: raw.tls,
    };
  }
  if (raw.status >= 200 && raw.status < 300) {
    throw new OutboundError('bad_response', `the answer (HTTP ${raw.status}) is not a GraphQL JSON body`, raw.status);
  }
  throw new OutboundError('http', `the cluster answered HTTP ${raw.status}`, raw.status);
}

function parseGraphqlBody(body: Buffer): { data: unknown; errors: GraphqlAnswer['errors'] } | null {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const record = json as Record<string, unknown>;
  const hasErrors = Array.isArray(record.errors);
  if (!('data' in record) && !hasErrors) return null;
  return { data: record.data, errors: hasErrors ? (record.errors as unknown[]).map(toGraphqlError) : [] };
}

function toGraphqlError(raw: unknown): GraphqlAnswer['errors'][number] {
  const error = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const message = typeof error.message === 'string' ? error.message : 'the cluster sent an error without a message';
  const extensions = error.extensions;
  const hasExtensions = typeof extensions === 'object' && extensions !== null && !Array.isArray(extensions);
  return hasExtensions ? { message, extensions: extensions as Record<string, unknown> } : { message };
}

function tlsDetails(res: IncomingMessage): TlsDetails | null {
  const socket = res.socket as TLSSocket | null;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return null;
  const cert = socket.getPeerCertificate();
  const hasCert = cert && Object.keys(cert).length > 0;
  return {
    protocol: socket.getProtocol() ?? null,
    cipher: socket.getCipher()?.name ?? null,
    subject: hasCert ? distinguishedName(cert.subject) : null,
    issuer: hasCert ? distinguishedName(cert.issuer) : null,
    valid_to: hasCert ? cert.valid_to : null,
    authorized: socket.authorized,
  };
}

function distinguishedName(name: object | undefined): string | null {
  if (!name) return null;
  const parts = Object.entries(name).map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** 200 ms * 2^attempt plus jitter, or the server's `Retry-After` (seconds, at most 5 s) when it gave one. */
function backoffMs(attempt: number, retryAfter: string | string[] | undefined): number {
  const seconds = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : null;
  if (seconds !== null) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return 200 * 2 ** attempt + Math.random() * 100;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new OutboundError('aborted', 'the call was cancelled');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  throwIfAborted(signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new OutboundError('aborted', 'the call was cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
