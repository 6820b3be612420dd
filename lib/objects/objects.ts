import type { ObjectsConfig } from '../config.js';
import { openLocal } from './local.js';
import type { ObjectStore } from './object-store.js';
import { openS3 } from './s3.js';

export type * from './object-store.js';
export { attachmentDisposition } from './object-rules.js';

/** The object store the configuration names: a local directory or an S3 bucket. */
export async function openObjects(cfg: ObjectsConfig): Promise<ObjectStore> {
  return cfg.kind === 'local' ? openLocal(cfg.dir) : openS3(cfg);
}
