import { describe, it, expect, afterAll } from 'vitest';
import Fastify from 'fastify';
import type { ObjectStore } from '../lib/objects/objects.js';
import { ServiceUnavailable } from '../lib/errors.js';
import { neurodataHandlers, registerUploadParsers } from './neurodata-files.js';
import type { RunOperation } from './login-redirect.js';

/** The upload route alone, with an object store whose writes fail with `failure`. */
async function uploadRoute(failure: Error) {
  const run: RunOperation = async () => ({ data: { datasetUploadTarget: { dataset_id: 'd1', upload_key: 'k1', max_bytes: 1024 } } });
  const objects = {
    putStream: async (_key: string, stream: NodeJS.ReadableStream) => {
      stream.resume();
      throw failure;
    },
  } as unknown as ObjectStore;
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (request) => {
    (request as unknown as { abort: AbortController }).abort = new AbortController();
  });
  await app.register(async (scope) => {
    await registerUploadParsers(scope);
    scope.post('/v1/neurodata/datasets/:dataset_id/assets', neurodataHandlers(run, objects).datasetUpload);
  });
  return app;
}

const upload = (app: Awaited<ReturnType<typeof uploadRoute>>) =>
  app.inject({ method: 'POST', url: '/v1/neurodata/datasets/d1/assets?filename=a.csv', headers: { 'content-type': 'text/csv' }, payload: 'a,b\n1,2\n' });

describe('POST /v1/neurodata/datasets/{dataset_id}/assets when the object store fails', () => {
  const apps: Awaited<ReturnType<typeof uploadRoute>>[] = [];
  afterAll(async () => Promise.all(apps.map((a) => a.close())));

  it.each([
    ['answers 503 with the message of an unavailable store, as every other route does', new ServiceUnavailable('object storage is unavailable; try again later'), 503, 'object storage is unavailable; try again later'],
    ['answers a fault with 500 and the generic message, never the original', new Error('EACCES: permission denied, open /data/objects/k1'), 500, 'internal server error'],
  ] as const)('%s', async (_name, failure, status, message) => {
    const app = await uploadRoute(failure);
    apps.push(app);
    const res = await upload(app);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: message });
  });
});
