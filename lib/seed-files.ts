import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT, packagePath } from './package-root.js';

/** The seed data shipped with the service (vocabularies, connectomes, morphologies), SEED_DIR's default. */
export const SHIPPED_SEED_DIR = packagePath('seed');

/**
 * A seed file the service needs is missing or unreadable. Its message is one line naming the file and how to get it
 * back; start-up and `npm run seed` print it alone, without a stack trace, and exit 1.
 */
export class SeedFileError extends Error {
  override name = 'SeedFileError';
}

/** The file's contents; a missing or unreadable file throws SeedFileError. `file` is relative to `seedDir`. */
export async function readSeedFile(seedDir: string, file: string): Promise<Buffer> {
  const full = path.join(seedDir, file);
  return readFile(full).catch((e: unknown) => {
    throw seedFileError(seedDir, full, 'file', e);
  });
}

/** The entries of a seed folder; a missing or unreadable folder throws SeedFileError. `dir` is relative to `seedDir`. */
export async function readSeedDir(seedDir: string, dir: string): Promise<Dirent[]> {
  const full = path.join(seedDir, dir);
  return readdir(full, { withFileTypes: true }).catch((e: unknown) => {
    throw seedFileError(seedDir, full, 'folder', e);
  });
}

function seedFileError(seedDir: string, full: string, what: 'file' | 'folder', e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  // The shipped folder is tracked by git; a copy named by SEED_DIR is the operator's.
  const fix = path.resolve(seedDir) === SHIPPED_SEED_DIR ? 'restore it with `git checkout -- seed`' : `restore it, or point SEED_DIR at a complete copy of the shipped ${shown(SHIPPED_SEED_DIR)}/ folder`;
  const name = `seed ${what} ${shown(full)}`;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new SeedFileError(`${name} is missing: ${fix}`);
  if (code === 'EACCES' || code === 'EPERM') return new SeedFileError(`${name} cannot be read (${code}): make it readable by the user the service runs as, or ${fix}`);
  if (code === 'EISDIR') return new SeedFileError(`${name} is a folder, not a file: ${fix}`);
  return e;
}

/** Paths inside the package relative to it (as a clone shows them), others in full. */
function shown(file: string): string {
  const relative = path.relative(PACKAGE_ROOT, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
