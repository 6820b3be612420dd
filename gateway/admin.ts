import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { chmod, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../lib/config.js';
import { openRelational } from '../lib/db/relational.js';
import { AppError, isExposed } from '../lib/errors.js';
import pino from 'pino';
import { systemClock } from '../lib/clock.js';
import type { Stores } from '../lib/stores.js';
import type { SubgraphDeps } from '../lib/subgraph.js';
import { identity } from '../subgraphs/identity/index.js';

export const ADMIN_USAGE = `usage: npm run admin -- create-superuser --email <email> --password <password|-> [--display-name <name>]
       npm run admin -- deactivate-account --email <email>
       npm run admin -- verify-account --email <email> --reason <why>
       npm run admin -- unverify-account --email <email>
  --password - reads the password from the first line of standard input (keeps it out of the shell history)
  create-superuser: an existing account with that email is promoted (its password is unchanged); SuperUser covers Academic
  deactivate-account: the account can no longer sign in; its logins and API tokens end now, its access tokens within 15 minutes
  verify-account: a Regular account becomes Academic, recorded as verified by the operator's command line with the reason
  unverify-account: an Academic account becomes Regular, its tokens at once
While the service runs on the embedded database, the command is carried out by the running service (DATA_DIR/admin.sock).`;

/** The socket in DATA_DIR through which `npm run admin` reaches a running service on the embedded database. */
export const adminSocketPath = (config: Config): string => path.join(config.dataDir, 'admin.sock');

const COMMANDS = ['create-superuser', 'deactivate-account', 'verify-account', 'unverify-account'] as const;
type Command = (typeof COMMANDS)[number];

/** A command line, checked: the command and its options (the password already read from standard input). */
interface AdminRequest {
  command: Command;
  email: string;
  password?: string;
  displayName?: string;
  reason?: string;
}

/** What the admin commands run against: the identity subgraph's account administration. */
type AdminServices = {
  admin: Awaited<ReturnType<ReturnType<typeof identity.use>['accountAdmin']>>;
  verifications: Awaited<ReturnType<ReturnType<typeof identity.use>['accountVerifications']>>;
};

/** The command line as a request, or the usage problem to print (exit 2). */
function parseCommand(argv: string[]): AdminRequest | { problem: string } {
  const [command, ...rest] = argv;
  if (!(COMMANDS as readonly string[]).includes(command ?? '')) return { problem: ADMIN_USAGE };
  let values: { email?: string; password?: string; 'display-name'?: string; reason?: string };
  try {
    ({ values } = parseArgs({ args: rest, options: { email: { type: 'string' }, password: { type: 'string' }, 'display-name': { type: 'string' }, reason: { type: 'string' } } }));
  } catch (e) {
    return { problem: `${(e as Error).message}\n${ADMIN_USAGE}` };
  }
  if (!values.email || (command === 'create-superuser' && !values.password) || (command === 'verify-account' && !values.reason)) return { problem: ADMIN_USAGE };
  return { command: command as Command, email: values.email, password: values.password, displayName: values['display-name'], reason: values.reason };
}

/**
 * The admin commands behind `npm run admin`. On the embedded database, a running service on the same DATA_DIR
 * carries the command out (over DATA_DIR/admin.sock): PGlite has one opener, so a second process must not open it.
 * Otherwise (no service answers, or PostgreSQL) the command opens the relational store itself (migrated first).
 * Writes what it did through `print`; returns the process exit code.
 */
export async function runAdmin(argv: string[], config: Config, print: (line: string) => void = console.log): Promise<number> {
  const parsed = parseCommand(argv);
  if ('problem' in parsed) {
    print(parsed.problem);
    return 2;
  }
  if (parsed.password === '-' && process.stdin.isTTY) {
    // On the standard error stream, so that the printed lines stay what the command did.
    process.stderr.write('password (used only if the account is new; an existing account keeps its own, so Enter will do): ');
  }
  const request = parsed.password === '-' ? { ...parsed, password: await readLine(process.stdin) } : parsed;
  if (config.relational.kind === 'pglite') {
    const answered = await askRunningService(adminSocketPath(config), request, print);
    if (answered !== null) return answered;
  }
  const relational = await openRelational(config.relational);
  try {
    await relational.migrate();
    // Account administration needs the relational store only: the command opens no other.
    const handle = identity.use({ config, stores: { relational } as Stores, clock: systemClock, log: pino({ level: 'silent' }) as never });
    return await execute(request, { admin: await handle.accountAdmin(), verifications: await handle.accountVerifications() }, print);
  } finally {
    await relational.close();
  }
}

/** Runs one checked command against these services: the same lines whether a running service or the CLI runs it. */
async function execute(request: AdminRequest, services: AdminServices, print: (line: string) => void): Promise<number> {
  try {
    print(await describe(request, services));
    return 0;
  } catch (e) {
    // As the API tells it: a refusal, or the part of the service that is unavailable; any other fault is logged.
    if (e instanceof AppError && isExposed(e.status)) {
      print(`${e.status === 503 ? 'unavailable' : 'refused'}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

async function describe(request: AdminRequest, { admin, verifications }: AdminServices): Promise<string> {
  switch (request.command) {
    case 'deactivate-account': {
      const { account, action } = await admin.deactivate(request.email);
      return action === 'deactivated'
        ? `deactivated ${account.email} (id ${account.id}): its logins and API tokens have ended`
        : `${account.email} (id ${account.id}) already is deactivated; nothing changed`;
    }
    case 'verify-account': {
      // Verified by the operator's command line: no SuperUser is recorded.
      const { account, changed } = await verifications.verify(await verifications.idForEmail(request.email), request.reason, null);
      return changed ? `verified ${account.email} (id ${account.id}): it is Academic now` : `${account.email} (id ${account.id}) already is Academic; nothing changed`;
    }
    case 'unverify-account': {
      const { account, changed } = await verifications.unverify(await verifications.idForEmail(request.email));
      return changed ? `took back the verification of ${account.email} (id ${account.id}): it is Regular now` : `${account.email} (id ${account.id}) already is Regular; nothing changed`;
    }
    case 'create-superuser': {
      const { account, action } = await admin.createSuperUser({ email: request.email, password: request.password!, display_name: request.displayName });
      return {
        created: `created SuperUser ${account.email} (id ${account.id})`,
        promoted: `promoted existing ${account.email} (id ${account.id}) to SuperUser; its password is unchanged`,
        unchanged: `${account.email} (id ${account.id}) already is a SuperUser; nothing changed`,
      }[action];
    }
  }
}

/**
 * Has the service listening on `socketPath` run the command, printing the lines it answers; resolves to the exit
 * code, or null when no service answers there (a socket file left by a service that ended is removed).
 */
async function askRunningService(socketPath: string, request: AdminRequest, print: (line: string) => void): Promise<number | null> {
  let socket: Socket;
  try {
    socket = await new Promise<Socket>((resolve, reject) => {
      const s = createConnection(socketPath, () => resolve(s));
      s.once('error', reject);
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') await rm(socketPath, { force: true });
    else if (code !== 'ENOENT') throw new Error(`cannot reach the running service at ${socketPath}: ${(e as Error).message}`, { cause: e });
    return null;
  }
  return new Promise<number>((resolve, reject) => {
    let buffer = '';
    let exit: number | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffer.slice(0, nl)) as { line?: string; exit?: number; error?: string };
        buffer = buffer.slice(nl + 1);
        if (message.line !== undefined) print(message.line);
        if (message.error !== undefined) print(`failed in the running service: ${message.error}`);
        if (message.exit !== undefined) exit = message.exit;
      }
    });
    socket.once('error', reject);
    socket.once('close', () => (exit === undefined ? reject(new Error('the running service closed the admin socket without an answer')) : resolve(exit)));
    socket.end(`${JSON.stringify(request)}\n`);
  });
}

/** The running service's side of `npm run admin`: closed with the app. */
export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

/**
 * Listens on DATA_DIR/admin.sock (mode 0600, in the 0700 DATA_DIR: only the service's own OS user may connect) and
 * runs each admin command sent there against the live services, as the command line would against the store. Only
 * for the embedded database: on PostgreSQL `npm run admin` opens the store itself. A socket file left by a service
 * that ended is replaced (this process holds the embedded database, so no other service runs on this DATA_DIR).
 */
export async function serveAdminSocket(config: Config, deps: SubgraphDeps, log: FastifyBaseLogger): Promise<AdminSocket | null> {
  const socketPath = adminSocketPath(config);
  // Unix socket paths are limited to about 107 bytes; a longer DATA_DIR leaves the CLI to open the store itself.
  if (Buffer.byteLength(socketPath) > 100) {
    log.warn({ socketPath }, 'DATA_DIR is too long a path for the admin socket: stop the service before running npm run admin');
    return null;
  }
  const handle = identity.use(deps);
  const services: AdminServices = { admin: await handle.accountAdmin(), verifications: await handle.accountVerifications() };
  const open = new Set<Socket>();
  // Half-open: the command line ends its side after the request and reads the answer until the service ends its own.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      // One command per connection, bounded: the password and a reason fit easily.
      if (buffer.length > 64 * 1024) socket.destroy();
    });
    socket.once('end', async () => {
      const send = (message: object) => socket.write(`${JSON.stringify(message)}\n`);
      try {
        const request = JSON.parse(buffer) as AdminRequest;
        // Checked again as a command line (the `--name=value` form, so a value starting with a dash stays a value).
        const options: [string, unknown][] = [['email', request.email], ['password', request.password], ['display-name', request.displayName], ['reason', request.reason]];
        const checked = parseCommand([String(request.command), ...options.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => `--${k}=${String(v)}`)]);
        if ('problem' in checked) {
          send({ line: checked.problem });
          send({ exit: 2 });
        } else {
          const exit = await execute(checked, services, (line) => send({ line }));
          log.info({ command: checked.command, exit }, 'admin command run');
          send({ exit });
        }
      } catch (err) {
        log.error({ err }, 'admin command failed');
        send({ error: 'see the service log' });
        send({ exit: 1 });
      }
      socket.end();
    });
    socket.on('error', (err) => log.warn({ err }, 'admin socket connection failed'));
  });
  try {
    await rm(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    await chmod(socketPath, 0o600);
  } catch (err) {
    log.warn({ err, socketPath }, 'could not open the admin socket: stop the service before running npm run admin');
    server.close();
    return null;
  }
  return {
    path: socketPath,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

async function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0];
}
