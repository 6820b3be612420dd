import type { SearchConfig } from '../config.js';

/**
 * The external search engine, when one is configured. Without it, dataset search runs as PostgreSQL full text
 * inside the relational store and this handle reports `not_configured`.
 */
export interface SearchEngine {
  readonly kind: 'none' | 'typesense';
  /** Throws when the configured engine cannot be reached or reports itself unhealthy. */
  ping(signal?: AbortSignal): Promise<void>;
  /** The Typesense client, for the stores that index into it. */
  client?: import('typesense').Client;
}

export async function openSearch(cfg: SearchConfig): Promise<SearchEngine> {
  if (cfg.kind === 'none') return { kind: 'none', ping: async () => {} };
  const { Client } = await import('typesense');
  const url = new URL(cfg.url);
  const client = new Client({
    nodes: [{ host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), protocol: url.protocol.replace(':', '') }],
    apiKey: cfg.apiKey,
    connectionTimeoutSeconds: 2,
    numRetries: 0,
    logLevel: 'silent',
  });
  return {
    kind: 'typesense',
    client,
    async ping(signal) {
      // Typesense's /health answers {"ok": true}; anything else is unhealthy.
      const res = await fetch(new URL('/health', cfg.url), { signal, headers: { 'X-TYPESENSE-API-KEY': cfg.apiKey } });
      const body = (await res.json().catch(() => ({}))) as { ok?: boolean };
      if (!res.ok || body.ok !== true) throw new Error(`typesense health answered ${res.status}`);
    },
  };
}
