import pino from 'pino';
import { ConfigError, type Config } from '../../lib/config.js';
import { SeedFileError } from '../../lib/seed-files.js';
import { openStores, closeStores } from '../../lib/stores.js';
import { systemClock } from '../../lib/clock.js';
import type { SubgraphDeps } from '../../lib/subgraph.js';

/**
 * Opens the configured stores (migrating them), gives `fn` what a subgraph gets, and closes them however `fn` ends.
 * The log stays quiet at the default level: a command prints its own progress.
 */
export async function withSubgraphDeps<T>(config: Config, fn: (deps: SubgraphDeps) => Promise<T>): Promise<T> {
  const stores = await openStores(config);
  try {
    const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }) as never;
    return await fn({ config, stores, clock: systemClock, log });
  } finally {
    await closeStores(stores);
  }
}

/** Runs a command's main and exits with its code; a configuration problem or a missing seed file prints its message alone. */
export async function runCommand(main: () => Promise<number>): Promise<never> {
  try {
    process.exit(await main());
  } catch (e) {
    console.error(e instanceof ConfigError || e instanceof SeedFileError ? e.message : e);
    process.exit(1);
  }
}
