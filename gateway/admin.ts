import { parseArgs } from 'node:util';
import type { Config } from '../lib/config.js';
import { openRelational } from '../lib/db/relational.js';
import { AppError } from '../lib/errors.js';
import pino from 'pino';
import { systemClock } from '../lib/clock.js';
import type { Stores } from '../lib/stores.js';
import { identity } from '../subgraphs/identity/index.js';

export const ADMIN_USAGE = `usage: npm run admin -- create-superuser --email <email> --password <password|-> [--display-name <name>]
       npm run admin -- deactivate-account --email <email>
  --password - reads the password from the first line of standard input (keeps it out of the shell history)
  deactivate-account: the account can no longer sign in; its logins and API tokens end now, its access tokens within 15 minutes`;

/**
 * The admin commands behind `npm run admin`, against the configured relational store (migrated first). Writes
 * what it did through `print`; returns the process exit code.
 */
export async function runAdmin(argv: string[], config: Config, print: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'create-superuser' && command !== 'deactivate-account') {
    print(ADMIN_USAGE);
    return 2;
  }
  let values: { email?: string; password?: string; 'display-name'?: string };
  try {
    ({ values } = parseArgs({ args: rest, options: { email: { type: 'string' }, password: { type: 'string' }, 'display-name': { type: 'string' } } }));
  } catch (e) {
    print(`${(e as Error).message}\n${ADMIN_USAGE}`);
    return 2;
  }
  if (!values.email || (command === 'create-superuser' && !values.password)) {
    print(ADMIN_USAGE);
    return 2;
  }
  const password = values.password === '-' ? await readLine(process.stdin) : values.password;
  const relational = await openRelational(config.relational);
  try {
    await relational.migrate();
    // Account administration needs the relational store only: the command opens no other.
    const stores = { relational } as Stores;
    const admin = await identity.use({ config, stores, clock: systemClock, log: pino({ level: 'silent' }) as never }).accountAdmin();
    if (command === 'deactivate-account') {
      const { account, action } = await admin.deactivate(values.email);
      print(
        action === 'deactivated'
          ? `deactivated ${account.email} (id ${account.id}): its logins and API tokens have ended`
          : `${account.email} (id ${account.id}) already is deactivated; nothing changed`,
      );
      return 0;
    }
    const { account, action } = await admin.createSuperUser({
      email: values.email,
      password: password!,
      display_name: values['display-name'],
    });
    const what = {
      created: `created SuperUser ${account.email} (id ${account.id})`,
      promoted: `promoted existing ${account.email} (id ${account.id}) to SuperUser; its password is unchanged`,
      unchanged: `${account.email} (id ${account.id}) already is a SuperUser; nothing changed`,
    }[action];
    print(what);
    return 0;
  } catch (e) {
    if (e instanceof AppError && e.status < 500) {
      print(`refused: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await relational.close();
  }
}

async function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0];
}
