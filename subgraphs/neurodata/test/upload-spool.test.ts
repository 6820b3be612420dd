import http from 'node:http';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestEngines, startTestApp, type TestApp, type TestEngines } from '../../../test/kit/app.js';
import { groupAlive, startService, type ServiceProcess } from '../../../test/kit/processes.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createDataset } from '../../../test/kit/datasets.js';
import { eventually } from '../../../test/kit/eventually.js';

const MiB = 1024 * 1024;

/** The spool files (objects being written) under the local object directory, with their sizes. */
function spoolFiles(objectsDir: string): { file: string; size: number }[] {
  const entries = readdirSync(objectsDir, { recursive: true, withFileTypes: true }) as { isFile(): boolean; name: string; parentPath: string }[];
  return entries.filter((e) => e.isFile() && e.name.endsWith('.tmp')).map((e) => ({ file: path.join(e.parentPath, e.name), size: statSync(path.join(e.parentPath, e.name)).size }));
}

// The service as an operator starts it, killed with SIGKILL while a 25 MB upload streams in: its spool file is
// left in the object directory, and a later start removes it once it is older than any transfer could run, while
// a younger spool file (another process sharing the directory, mid-upload) stays.
describe('an upload cut short by kill -9 of the service', () => {
  let engines: TestEngines;
  let owner: TestUser;
  let datasetId: string;
  let service: ServiceProcess | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    engines = await createTestEngines();
    const first = await startTestApp({}, { engines });
    try {
      owner = await createUser(first, { accountType: 'ACADEMIC' });
      datasetId = (await createDataset(first, owner)).id;
    } finally {
      await first.stop();
    }
  }, 180_000);
  afterAll(async () => {
    if (service && groupAlive(service.pid)) process.kill(-service.pid, 'SIGKILL');
    await t?.stop().catch(() => undefined);
    await engines?.drop();
  });

  it('leaves a spool file that a later start sweeps once it is stale, keeping a fresh one', async () => {
    service = await startService(engines, { LOG_LEVEL: 'warn' });
    const objectsDir = path.join(engines.dataDir, 'objects');
    const url = new URL(`/v1/neurodata/datasets/${datasetId}/assets?filename=volume.bin`, service.url);
    const request = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.accessToken}`, 'content-type': 'application/octet-stream', 'content-length': String(25 * MiB) },
    });
    request.on('error', () => {});
    request.write(Buffer.alloc(5 * MiB, 7));
    const [left] = await eventually(() => {
      const files = spoolFiles(objectsDir).filter((f) => f.size >= MiB);
      return files.length ? files : undefined;
    }, { timeoutMs: 30_000, what: 'the upload spooling to a file' });
    expect(path.relative(objectsDir, left.file)).toMatch(new RegExp(`^uploads/${datasetId}/[0-9a-f-]{36}\\.[0-9a-f-]{36}\\.tmp$`));

    process.kill(-service.pid, 'SIGKILL');
    await eventually(() => !groupAlive(service!.pid), { timeoutMs: 5000, what: 'the killed process group gone' });
    request.destroy();
    expect(spoolFiles(objectsDir).map((f) => f.file)).toEqual([left.file]);

    // Older than twice the longest transfer (UPLOAD_TIMEOUT_MS, 30 minutes): no writer can still own it.
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
    utimesSync(left.file, dayAgo, dayAgo);
    const fresh = path.join(path.dirname(left.file), '0196a8a0-0000-7000-8000-00000000000f.9a2f1e0d-9c8b-4a61-8f1c-2b9e5d4a4c3b.tmp');
    writeFileSync(fresh, Buffer.alloc(1024));

    t = await startTestApp({}, { engines });
    await eventually(() => spoolFiles(objectsDir).every((f) => f.file !== left.file), { timeoutMs: 30_000, what: 'the stale spool file swept' });
    expect(spoolFiles(objectsDir)).toEqual([{ file: fresh, size: 1024 }]);
  }, 240_000);
});
