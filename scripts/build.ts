import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../lib/package-root.js';

/**
 * npm run build: compiles the service into dist/ for production, run as `node dist/main.js` (and
 * `node dist/gateway/cli/<command>.js`). tsc emits one JavaScript module per source module, so dist/ mirrors the
 * source tree; what the code reads at run time (node_modules/, migrations/, seed/; schema/ for the CLIs that write
 * it) stays at the package root, where lib/package-root.ts finds it from either layout.
 */
export const DIST = path.join(PACKAGE_ROOT, 'dist');
const CONFIG = path.join(PACKAGE_ROOT, 'tsconfig.build.json');
/** Plain JavaScript modules the code loads by path (a worker thread's entry), copied beside their compiled callers. */
const ASSETS = ['lib/db/pglite-worker.mjs'];
/** Written last: its fingerprint says which sources dist/ was built from. */
const BUILD_INFO = path.join(DIST, 'build-info.json');

/** The files a build reads: the modules tsc compiles (tsconfig.build.json decides), the copied assets, the configs. */
function buildInputs(): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(d.messageText) });
  if (!parsed) throw new Error(`cannot read ${CONFIG}`);
  const files = [...parsed.fileNames, ...ASSETS.map((a) => path.join(PACKAGE_ROOT, a)), CONFIG, path.join(PACKAGE_ROOT, 'tsconfig.json')];
  return files.map((f) => path.relative(PACKAGE_ROOT, f)).sort();
}

/** A hash of every input's name and content: equal fingerprints, equal builds. */
export async function sourceFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of buildInputs()) hash.update(`${file}\0`).update(await readFile(path.join(PACKAGE_ROOT, file))).update('\0');
  return hash.digest('hex');
}

/** Why dist/ does not match the sources (missing, or built from other sources), or null when it does. */
export async function staleBuildReason(): Promise<string | null> {
  const info = await readFile(BUILD_INFO, 'utf8').then((t) => JSON.parse(t) as { fingerprint?: string }, () => null);
  if (!info) return 'dist/ has not been built';
  return info.fingerprint === (await sourceFingerprint()) ? null : 'dist/ was built from other sources than the current ones';
}

/** Builds dist/ from scratch: nothing a removed source once produced survives. */
export async function build(): Promise<void> {
  const started = performance.now();
  const fingerprint = await sourceFingerprint();
  await rm(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', CONFIG], { cwd: PACKAGE_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit code ${result.status})`);
  for (const asset of ASSETS) {
    await mkdir(path.dirname(path.join(DIST, asset)), { recursive: true });
    await copyFile(path.join(PACKAGE_ROOT, asset), path.join(DIST, asset));
  }
  await writeFile(BUILD_INFO, `${JSON.stringify({ fingerprint }, null, 2)}\n`);
  console.log(`built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s; run it with: node dist/main.js`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await build().catch((e: unknown) => {
    console.error((e as Error).message);
    process.exit(1);
  });
}
