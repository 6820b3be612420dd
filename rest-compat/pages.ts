import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import path from 'node:path';
import { readFile } from 'node:fs/promises';

const require = createRequire(import.meta.url);

/** Static assets served from installed packages, never from a CDN, so the pages work on an air-gapped cluster. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: path.join(path.dirname(require.resolve('swagger-ui-dist/package.json')), 'swagger-ui.css'), type: 'text/css' },
  'swagger-ui-bundle.js': { file: path.join(path.dirname(require.resolve('swagger-ui-dist/package.json')), 'swagger-ui-bundle.js'), type: 'text/javascript' },
  'graphiql.min.css': { file: path.join(path.dirname(require.resolve('graphiql/package.json')), 'graphiql.min.css'), type: 'text/css' },
  'graphiql.min.js': { file: path.join(path.dirname(require.resolve('graphiql/package.json')), 'graphiql.min.js'), type: 'text/javascript' },
  'react.production.min.js': { file: path.join(path.dirname(require.resolve('react/package.json')), 'umd/react.production.min.js'), type: 'text/javascript' },
  'react-dom.production.min.js': { file: path.join(path.dirname(require.resolve('react-dom/package.json')), 'umd/react-dom.production.min.js'), type: 'text/javascript' },
};

const cache = new Map<string, Buffer>();

export async function readAsset(name: string): Promise<{ body: Buffer; type: string } | null> {
  const asset = ASSETS[name];
  if (!asset) return null;
  let body = cache.get(name);
  if (!body) {
    body = await readFile(asset.file);
    cache.set(name, body);
  }
  return { body, type: asset.type };
}

/**
 * The pages' own Content-Security-Policy, in place of the API's `default-src 'none'`: scripts, styles and requests
 * from this origin only, plus the page's inline script by its hash; nothing may frame the page. Swagger UI and
 * GraphiQL set inline styles, and Swagger UI draws its icons from data: URIs.
 */
function pagePolicy(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Sends one of the HTML pages below with its policy. */
export function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('content-security-policy', pagePolicy(html)).send(html);
}

export const docsPage = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Neuroscience Data Service API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout', persistAuthorization: true });
</script></body></html>`;

export const graphiqlPage = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphQL explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0;height:100vh}#graphiql{height:100vh}</style>
<link rel="stylesheet" href="/docs/assets/graphiql.min.css"></head>
<body><div id="graphiql">Loading…</div>
<script src="/docs/assets/react.production.min.js"></script>
<script src="/docs/assets/react-dom.production.min.js"></script>
<script src="/docs/assets/graphiql.min.js"></script>
<script>
const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, {
  fetcher, defaultEditorToolsVisibility: true,
  defaultQuery: '# Each subgraph answers a ping; add an Authorization header below for protected fields.\\n{\\n  identityPing { subgraph status time }\\n  ontologyPing { subgraph status }\\n}\\n' }));
</script></body></html>`;
