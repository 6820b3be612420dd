import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs every `bench/*.bench.ts` (or the ones named on the command line) in turn. Each exports a default async
 * function that prints its workload, figures and ratio against a baseline measured in the same run.
 *
 * Each benchmark runs in a process of its own (`--same-process` runs them all in this one), as JMH forks a JVM per
 * benchmark: what an earlier benchmark leaves in the process (its retained heap, the type feedback its workload left
 * in shared code, the embedded engines' threads) otherwise changes the figures of the next one. Measured: the
 * platform ratios on PGlite run after the ontology benchmark in the same process came out 3-9% below those of the
 * same benchmark alone (docs/benchmarks.md, the request-path section "benchmarks in processes of their own").
 */
// As the production build runs (node dist/main.js): stack traces are not mapped back to the sources. tsx maps
// them, and the first error's stack trace then reads the source maps of every module on it, tens of milliseconds on
// the request thread that a deployed service never spends.
process.setSourceMapsEnabled(false);
const self = fileURLToPath(import.meta.url);
const dir = path.dirname(self);
const args = process.argv.slice(2);
const sameProcess = args.includes('--same-process');
const child = args.indexOf('--child');
/** Options that take a value (`--synapses 1000000`): passed on to the benchmarks, not names of benchmarks. */
const VALUED = new Set(['--child', '--synapses']);
const only = args.filter((a, i) => !a.startsWith('--') && !VALUED.has(args[i - 1]));
/** What the benchmarks read from the command line (bench/synapses.bench.ts's `--synapses N`, `--service`). */
const forwarded = args.filter((a, i) => (a.startsWith('--') && a !== '--same-process' && a !== '--child' && args[i - 1] !== '--child') || (VALUED.has(args[i - 1]) && args[i - 1] !== '--child'));
const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts') && (only.length === 0 || only.some((o) => f.includes(o)))).sort();

async function runHere(file: string): Promise<void> {
  const mod = (await import(path.join(dir, file))) as { default: () => Promise<void> };
  await mod.default();
}

/** One benchmark in a new process with this one's Node flags (tsx's loader among them) and environment. */
function runForked(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, self, '--child', file, ...forwarded], { stdio: 'inherit' });
    p.once('error', reject);
    p.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`benchmark ${file} failed (${signal ?? `exit ${code}`})`))));
  });
}

if (child >= 0) {
  await runHere(args[child + 1]);
} else {
  for (const file of files) {
    console.log(`\n### ${file.replace('.bench.ts', '')}`);
    if (sameProcess) await runHere(file);
    else await runForked(file);
  }
}
process.exit(0);
