import 'reflect-metadata';
import { loadConfig, ConfigError } from '../../lib/config.js';
import { runAdmin } from '../admin.js';

/** npm run admin -- create-superuser --email X --password Y: account administration from the command line. */
try {
  process.exit(await runAdmin(process.argv.slice(2), loadConfig()));
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
