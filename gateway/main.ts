import { loadConfig, ConfigError } from '../lib/config.js';
import { createApp } from './app.js';

/** Starts the service; configuration problems are printed together and exit 1. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await createApp(config);
  await app.http.listen({ host: config.http.host, port: config.http.port });
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
