import 'reflect-metadata';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs every `bench/*.bench.ts` (or the ones named on the command line) in turn. Each exports a default async
 * function that prints its workload, figures and ratio against a baseline measured in the same run.
 */
// As the production build runs (node dist/main.js): stack traces are not mapped back to the sources. tsx maps
// them, and the first error's stack trace then reads the source maps of every module on it, tens of milliseconds on
// the request thread that a deployed service never spends.
process.setSourceMapsEnabled(false);
const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts') && (only.length === 0 || only.some((o) => f.includes(o)))).sort();
for (const file of files) {
  console.log(`\n### ${file.replace('.bench.ts', '')}`);
  const mod = (await import(path.join(dir, file))) as { default: () => Promise<void> };
  await mod.default();
}
process.exit(0);
