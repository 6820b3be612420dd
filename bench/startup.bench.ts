import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build, staleBuildReason } from '../scripts/build.js';
import { PGLITE_TEMPLATE } from '../lib/db/relational.js';
import { startServiceProcess } from '../test/kit/processes.js';
import { percentile } from './lib.js';

/**
 * Start-up and memory of the embedded service as operators start it: `npm start` (tsx under npm's wrapper) and the
 * compiled build (`node dist/main.js`). For each: time from spawning the command until GET /health answers 200, on a
 * fresh data directory and on a restart with the directory the previous start left; and the resident memory of the
 * whole process tree (npm, sh, node, tsx's esbuild) once healthy and settled. The baseline is a bare Fastify server
 * started with `node -e`, in the same run. Medians of a few runs: start-up times vary with the machine's load.
 */
const RUNS = 3;
const SETTLE_MS = 5000;

// The embedded engines whatever this shell points at, and logs that do not flood the terminal.
const ENV = { DATABASE_URL: undefined, CLICKHOUSE_URL: undefined, REDIS_URL: undefined, NODE_ENV: 'development', LOG_LEVEL: 'warn' };

// Reads its port from the command line: the bench does not read the environment itself.
const BARE_FASTIFY = `import('fastify').then(async ({ default: fastify }) => {
  const app = fastify();
  app.get('/health', async () => ({ status: 'healthy' }));
  await app.listen({ host: '127.0.0.1', port: Number(process.argv[1]) });
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
})`;

interface Command {
  name: string;
  command: string;
  args: string[] | ((port: number) => string[]);
}

const COMMANDS: Command[] = [
  { name: 'npm start (tsx)', command: 'npm', args: ['start', '--silent'] },
  { name: 'node dist/main.js (compiled)', command: process.execPath, args: ['dist/main.js'] },
];

interface Sample {
  ms: number;
  /** Resident memory of the whole process tree after settling, and of the largest process in it (the service). */
  treeMb: number;
  serviceMb: number;
}

async function sample(c: Command, dataDir: string): Promise<Sample> {
  const service = await startServiceProcess(c.command, c.args, { ...ENV, DATA_DIR: dataDir });
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const tree = service.tree();
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return { ms: service.healthyAfterMs, treeMb: mb(tree.reduce((sum, p) => sum + p.rss, 0)), serviceMb: mb(Math.max(...tree.map((p) => p.rss))) };
  } finally {
    // npm ends on the signal itself; the service under it closes its stores, and stop() waits for it.
    await service.stop();
  }
}

function median(samples: Sample[]): Sample {
  const pick = (f: (s: Sample) => number) => percentile(samples.map(f).sort((a, b) => a - b), 50);
  return { ms: pick((s) => s.ms), treeMb: pick((s) => s.treeMb), serviceMb: pick((s) => s.serviceMb) };
}

export default async function startupBench(): Promise<void> {
  const stale = await staleBuildReason();
  if (stale) {
    console.log(`${stale}: building it first`);
    await build();
  }
  const root = await mkdtemp(path.join(os.tmpdir(), 'neurodata-startup-'));
  let dirs = 0;
  const freshDir = () => path.join(root, String(dirs++));
  try {
    const baseline = median(await series(() => sample({ name: 'bare Fastify', command: process.execPath, args: (port) => ['-e', BARE_FASTIFY, String(port)] }, freshDir())));
    const rows: { name: string; s: Sample }[] = [];
    for (const c of COMMANDS) {
      // The first fresh start of an installation also runs PGlite's initdb, and saves its result as a template.
      await rm(PGLITE_TEMPLATE, { force: true });
      rows.push({ name: `${c.name}, first start of an installation`, s: await sample(c, freshDir()) });
      const fresh: Sample[] = [];
      const restart: Sample[] = [];
      for (let i = 0; i < RUNS; i++) {
        const dir = freshDir();
        fresh.push(await sample(c, dir));
        restart.push(await sample(c, dir));
      }
      rows.push({ name: `${c.name}, fresh data directory`, s: median(fresh) }, { name: `${c.name}, restart`, s: median(restart) });
    }
    console.log(`workload: start until GET /health answers 200, then ${SETTLE_MS / 1000} s idle; embedded engines; median of ${RUNS} runs (the first start of an installation: one run)`);
    const line = (name: string, s: Sample, ratios: string) =>
      `  ${name.padEnd(62)} healthy after ${(s.ms / 1000).toFixed(2).padStart(5)} s   idle RSS ${s.treeMb.toFixed(0).padStart(4)} MB (largest process ${s.serviceMb.toFixed(0).padStart(4)} MB)   ${ratios}`;
    console.log(line('bare Fastify server, node -e (baseline)', baseline, ''));
    for (const r of rows) console.log(line(r.name, r.s, `x${(r.s.ms / baseline.ms).toFixed(1)} time, x${(r.s.treeMb / baseline.treeMb).toFixed(1)} memory of baseline`));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function series(run: () => Promise<Sample>): Promise<Sample[]> {
  const out: Sample[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await run());
  return out;
}
