// The embedded PostgreSQL (PGlite, a WebAssembly build) runs in this worker thread and is served over the
// PostgreSQL wire protocol on a private Unix socket. The request thread reaches it with node-postgres exactly as it
// reaches a PostgreSQL server, so a long query here never stalls the event loop that answers /health.
// Plain JavaScript: a worker thread does not inherit the TypeScript loader of every host (vitest, tsx).
import { parentPort, workerData, threadId } from 'node:worker_threads';
import { openAsBlob } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// `template` is given only for a data directory PGlite has not initialised yet (lib/db/relational.ts).
// `modules`: PGlite's WebAssembly, compiled once by the host process (lib/db/relational.ts).
const { dataDir, socketPath, template, modules } = workerData;
const OPTIONS = {
  ...modules,
  extensions: { pg_trgm, unaccent },
  // PostgreSQL's default of 128 MB of shared buffers is resident as soon as PGlite starts. PGlite reads its files
  // through the operating system's page cache, so a smaller pool costs little: 32 MB keeps about 100 MB off the idle
  // process, with queries as fast and bulk imports about 5 % slower (docs/benchmarks.md, Start-up and memory).
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
};

/**
 * A new database costs PGlite's initdb, the largest part of a fresh start (2.5 s on an idle machine, far more on a
 * busy one), and its result is the same every time for one PGlite version. So the first fresh start saves it as a
 * template (the tar of the data directory that PGlite's dumpDataDir writes and its loadDataDir reads), and later
 * fresh starts load that instead (under a second).
 */
async function openDatabase() {
  if (!template) return PGlite.create(dataDir, OPTIONS);
  // A blob backed by the file: PGlite keeps the blob while the database is open, and this one holds no copy.
  if (template.load) return PGlite.create(dataDir, { ...OPTIONS, loadDataDir: await openAsBlob(template.file) });
  const db = await PGlite.create(dataDir, OPTIONS);
  await saveTemplate(db, template.file);
  return db;
}

/** Saves the just-initialised database (nothing of ours in it yet) where the next fresh start looks. */
async function saveTemplate(db, file) {
  const partial = `${file}.${process.pid}-${threadId}.partial`;
  try {
    await db.exec('CHECKPOINT');
    const tar = await db.dumpDataDir('none');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(partial, Buffer.from(await tar.arrayBuffer()));
    // Readers see the whole file or none, also when several processes start fresh at once.
    await rename(partial, file);
    // Templates of PGlite versions no longer installed would only take space.
    const dir = path.dirname(file);
    for (const name of await readdir(dir)) {
      if (/^pglite-.*-initdb\.tar$/.test(name) && name !== path.basename(file)) await rm(path.join(dir, name), { force: true });
    }
  } catch {
    // Only a cache (its directory may be read-only): the next fresh start runs initdb again.
    await rm(partial, { force: true }).catch(() => {});
  }
}

try {
  const db = await openDatabase();
  // One connection: PGlite executes one statement at a time anyway, and the multiplexer can interleave the
  // messages of two clients' extended-protocol queries. node-postgres queues the callers instead.
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
  parentPort.on('message', async (message) => {
    // Answered between statements, even while another caller's long transaction holds the connection.
    if (message?.ping !== undefined) return parentPort.postMessage({ pong: message.ping });
    if (message !== 'close') return;
    try {
      await server.stop();
      await db.close();
      parentPort.postMessage({ closed: true });
    } catch (e) {
      parentPort.postMessage({ closed: true, error: String(e?.message ?? e) });
    }
  });
  parentPort.postMessage({ ready: true });
} catch (e) {
  parentPort.postMessage({ error: String(e?.stack ?? e) });
}
