import { chmod, readdir, lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { ConfigError } from './config.js';

/**
 * Makes DATA_DIR readable by its owner only: it holds password hashes, signing keys and every dataset. The process
 * umask becomes 077, so everything created from now on is owner-only (0600 files, 0700 directories), whoever
 * creates it: PGlite (in a worker thread too; the umask is per process), chDB's native code, keys, objects. An
 * existing directory is narrowed to 0700, which also hides the files older versions created readable by all.
 * Returns a warning when the directory belongs to another user and cannot be narrowed (a mounted volume); throws a
 * ConfigError when DATA_DIR names something other than a directory.
 */
export async function secureDataDir(dir: string): Promise<string | undefined> {
  // Worker threads may not change the umask; their process's main thread has set it.
  if (isMainThread) process.umask(0o077);
  try {
    if (!(await stat(dir)).isDirectory()) throw new ConfigError([`DATA_DIR: ${dir} is not a directory`]);
    await chmod(dir, 0o700);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Missing: whoever creates it later does so under the new umask.
    if (code === 'ENOENT') return undefined;
    if (code === 'EPERM') return `DATA_DIR ${dir} belongs to another user and stays readable by others its mode allows; make it 0700`;
    throw e;
  }
  return undefined;
}

/**
 * Takes the group and other permission bits off everything under `dir`, for files whose creator sets their mode
 * explicitly and so escapes the umask: PGlite writes its initial database with Emscripten, which chmods each
 * file to 0666 after creating it. Files that vanish meanwhile (an engine's temporary files) are skipped.
 */
export async function narrowModes(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  for (const entry of [dir, ...entries.map((e) => path.join(dir, e))]) {
    const stats = await lstat(entry).catch(() => undefined);
    if (!stats || stats.isSymbolicLink() || (stats.mode & 0o077) === 0) continue;
    await chmod(entry, stats.mode & 0o700).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
}
