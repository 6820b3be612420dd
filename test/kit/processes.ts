import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { PACKAGE_ROOT } from '../../lib/package-root.js';
import { staleBuildReason } from '../../scripts/build.js';
import type { TestEngines } from './app.js';
import { eventually } from './eventually.js';

let built: Promise<boolean> | undefined;

/**
 * The node arguments that run one of the service's entry points (`main`, `gateway/cli/serve-subgraph`, ...): its
 * compiled module when dist/ was built from the current sources (`.ci/run` builds it before the tests), its
 * TypeScript through tsx otherwise, so a test never runs stale code. Both behave the same; the compiled module
 * starts without compiling the service first, about 5 s of CPU less per process.
 */
export async function entryArgs(entry: string): Promise<string[]> {
  built ??= staleBuildReason().then((reason) => reason === null);
  return (await built) ? [`dist/${entry}.js`] : ['--import', 'tsx', `${entry}.ts`];
}

/** A loopback port nothing listens on right now. */
export async function freePort(opts: { consecutive?: number } = {}): Promise<number> {
  const count = opts.consecutive ?? 1;
  for (;;) {
    const held: net.Server[] = [];
    const listen = (port: number) =>
      new Promise<net.Server | null>((resolve) => {
        const s = net.createServer();
        s.once('error', () => resolve(null));
        s.listen(port, '127.0.0.1', () => resolve(s));
      });
    const first = await listen(0);
    if (!first) continue;
    held.push(first);
    const port = (first.address() as net.AddressInfo).port;
    // A server that takes the ports after it too (ClickHouse's TCP port beside its HTTP port) needs them all free.
    for (let i = 1; i < count && held.length === i; i++) {
      const next = port + i <= 65535 ? await listen(port + i) : null;
      if (next) held.push(next);
    }
    await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
    if (held.length === count) return port;
  }
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
  const entry = await entryArgs('gateway/cli/serve-subgraph');
  const service = await startServiceProcess(
    process.execPath,
    (port) => [...entry, name, '--port', String(port)],
    { ...engines.env, LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
    { timeoutMs: 60_000 },
  );
  return {
    origin: service.url,
    url: `${service.url}/graphql`,
    logs: service.output,
    stop: async () => {
      await service.stop();
    },
  };
}

/**
 * The whole service as an operator starts it (`npm start`), on `engines`, without the shipped datasets unless `env`
 * asks for them.
 */
export async function startService(engines: TestEngines, env: Record<string, string> = {}, opts: { timeoutMs?: number } = {}): Promise<ServiceProcess> {
  return startServiceProcess(process.execPath, await entryArgs('main'), { ...engines.env, NODE_ENV: 'test', SEED_DATASETS: 'false', ...env }, { timeoutMs: opts.timeoutMs ?? 120_000 });
}

/** The service started as an operator starts it (`npm start`, `node dist/main.js`), in its own process group. */
export interface ServiceProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** From spawning the command until GET /health first answered 200. */
  healthyAfterMs: number;
  /** What the process tree wrote to stdout and stderr so far. */
  output(): string;
  /** The process and all its descendants (npm, sh, tsx's esbuild, ...) with their resident memory. */
  tree(): { pid: number; name: string; rss: number }[];
  /**
   * Sends SIGTERM to the whole process group, as Ctrl-C in a terminal reaches every process of the command, and
   * resolves with how the command's own process exited.
   */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `command` in PACKAGE_ROOT (or `opts.cwd`) with the current environment plus `env` (an undefined value removes a
 * variable), on a free loopback port given as PORT (and to `args` when it is a function), and waits until GET /health
 * answers 200.
 * Fails with the output when the process exits first or `timeoutMs` passes.
 */
export async function startServiceProcess(
  command: string,
  args: string[] | ((port: number) => string[]),
  env: Record<string, string | undefined>,
  opts: { timeoutMs?: number; cwd?: string } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const argv = typeof args === 'function' ? args(port) : args;
  const started = performance.now();
  const child = spawn(command, argv, {
    cwd: opts.cwd ?? PACKAGE_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: stop() reaches npm's and tsx's children too, and nothing outlives a test.
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = started + (opts.timeoutMs ?? 120_000);
  for (;;) {
    // Each answer is read to the end, so no half-read response keeps a connection busy when the service stops.
    if (await fetch(`${url}/health`).then(async (r) => (await r.arrayBuffer(), r.ok), () => false)) break;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${command} ${argv.join(' ')} exited before it was healthy:\n${out}`);
    if (performance.now() > deadline) {
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`${command} ${argv.join(' ')} was not healthy within ${opts.timeoutMs ?? 120_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const healthyAfterMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    healthyAfterMs,
    output: () => out,
    tree: () => processTree(child.pid!),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      const how = await exited;
      // Wrappers may exit before the service does: wait until nothing of the group is left.
      await eventually(() => !groupAlive(child.pid!), { timeoutMs: 10_000, intervalMs: 50, what: 'the stopped service gone' }).catch(() => undefined);
      return how;
    },
  };
}

/** `pid` and every process below it, each with its command name and resident memory in bytes, from /proc. */
export function processTree(pid: number): { pid: number; name: string; rss: number }[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(`/proc/${entry}/stat`);
    // The command name may hold spaces and parentheses: the fields after it start past the last ')'.
    const ppid = stat && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree: { pid: number; name: string; rss: number }[] = [];
  for (const queue = [pid]; queue.length; ) {
    const p = queue.pop()!;
    const status = readProc(`/proc/${p}/status`);
    if (!status) continue;
    tree.push({ pid: p, name: /Name:\s+(.*)/.exec(status)?.[1] ?? '?', rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024 });
    queue.push(...(children.get(p) ?? []));
  }
  return tree;
}

function readProc(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; // the process ended meanwhile
  }
}

/** Whether any process of the group led by `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
