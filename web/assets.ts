import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { packagePath } from '../lib/package-root.js';

/**
 * The pages' static files (web/assets/), served at /assets/<name>: one style sheet and small scripts that only
 * enhance pages which work without them. Read once; nothing comes from another site, so the pages work offline.
 */
const FILES: Record<string, string> = {
  'site.css': 'text/css; charset=utf-8',
  'site.js': 'text/javascript; charset=utf-8',
  'confirm.js': 'text/javascript; charset=utf-8',
  'copy.js': 'text/javascript; charset=utf-8',
  'jobs.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

export interface Asset {
  body: Buffer;
  type: string;
  /** A short content hash: the pages link `?v=<version>`, so a changed file gets a new URL and caches can keep one for a year. */
  version: string;
}

const assets = new Map<string, Asset>(
  Object.entries(FILES).map(([name, type]) => {
    const body = readFileSync(packagePath('web', 'assets', name));
    return [name, { body, type, version: createHash('sha256').update(body).digest('base64url').slice(0, 12) }];
  }),
);

export const assetOf = (name: string): Asset | undefined => assets.get(name);

/** The URL pages link an asset by. */
export function assetUrl(name: string): string {
  const asset = assets.get(name);
  if (!asset) throw new Error(`no web asset ${name}`);
  return `/assets/${name}?v=${asset.version}`;
}
