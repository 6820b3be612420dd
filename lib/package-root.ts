import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory holding package.json, and beside it what the service ships as data (migrations/, seed/, schema/,
 * README.md). Found by walking up from this module rather than by a fixed `..`, because this module runs from lib/
 * (tsx, tests) and from dist/lib/ (the compiled build) alike, and the data is not copied into dist/.
 */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** A path inside the package, e.g. packagePath('migrations'). */
export function packagePath(...segments: string[]): string {
  return path.join(PACKAGE_ROOT, ...segments);
}

let version: string | undefined;

/** The service's version (package.json), as results and federation report it. */
export function serviceVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
