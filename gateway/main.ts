import { loadConfig, ConfigError } from '../lib/config.js';
import { SeedFileError } from '../lib/seed-files.js';
import { createApp } from './app.js';
import { closeWorkerPool } from '../lib/workers/pool.js';
import { stopOnSignals } from './shutdown.js';

/** Starts the service; configuration problems are printed together and exit 1. */
async function main() {
  const config = loadConfig();
  const app = await createApp(config);
  await app.http.listen({ host: config.http.host, port: config.http.port });
  stopOnSignals(async () => {
    await app.close();
    await closeWorkerPool();
  });
}

main().catch((e) => {
  // A configuration problem found while starting (a key, an engine missing on this platform, a seed file gone) is
  // the operator's to fix: its message says how; a stack trace would bury it.
  console.error(e instanceof ConfigError || e instanceof SeedFileError ? e.message : e);
  process.exit(1);
});
