import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestEngines } from './app.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

export interface SubgraphProcess {
  origin: string;
  /** The subgraph's GraphQL endpoint, for SUBGRAPH_<NAME>_URL. */
  url: string;
  logs(): string;
  stop(): Promise<void>;
}

/** Serves one subgraph alone in its own process, as an operator would with `npm run subgraph`, on `engines`. */
export async function serveSubgraph(name: string, engines: TestEngines, env: Record<string, string> = {}): Promise<SubgraphProcess> {
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'gateway/cli/serve-subgraph.ts', name, '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, ...engines.env, LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${origin}/health`).then((r) => r.ok, () => false)) break;
    if (child.exitCode !== null || i > 600) throw new Error(`the ${name} subgraph did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    url: `${origin}/graphql`,
    logs: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
