import type { ObjectsConfig } from '../config.js';
import { openLocal } from './local.js';
import type { ObjectStore } from './object-store.js';
import { guardObjectStore } from './object-rules.js';
import { openS3 } from './s3.js';

export type * from './object-store.js';
export { attachmentDisposition } from './object-rules.js';

/**
 * The object store the configuration names: a local directory or an S3 bucket. Either answers a failure of the
 * store itself with ServiceUnavailable ("object storage is unavailable"), the raw error as its cause.
 */
export async function openObjects(cfg: ObjectsConfig): Promise<ObjectStore> {
  return guardObjectStore(cfg.kind === 'local' ? await openLocal(cfg.dir, { spoolMaxAgeMs: cfg.spoolMaxAgeMs }) : await openS3(cfg));
}
