// The embedded PostgreSQL (PGlite, a WebAssembly build) runs in this worker thread and is served over the
// PostgreSQL wire protocol on a private Unix socket. The request thread reaches it with node-postgres exactly as it
// reaches a PostgreSQL server, so a long query here never stalls the event loop that answers /health.
// Plain JavaScript: a worker thread does not inherit the TypeScript loader of every host (vitest, tsx).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, socketPath } = workerData;
try {
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent } });
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
