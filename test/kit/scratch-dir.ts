import { accessSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import path from 'node:path';

const SHM = '/dev/shm';
const PREFIX = 'neurodata-test-';
/** Below this much free memory the tests keep their files on disk. */
const MIN_FREE_BYTES = 4 * 1024 ** 3;

/**
 * Points TMPDIR, where every test's data directories, sockets and scratch files go, at a fresh directory in memory
 * (Linux's /dev/shm) unless TMPDIR is set already. A test app's start copies a 40 MB seeded database of a thousand
 * files, and PGlite and chDB write and sync many small files; on a virtual machine's disk that costs about two
 * seconds of CPU per app, in memory a tenth of that. The directory goes when the run ends; one left by a run that
 * was killed goes at the next run.
 */
export function useMemoryScratch(): void {
  if (process.env.TMPDIR) return;
  try {
    accessSync(SHM, constants.W_OK);
    const fs = statfsSync(SHM);
    if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return;
  } catch {
    return;
  }
  for (const name of readdirSync(SHM)) {
    const pid = Number(name.startsWith(PREFIX) ? name.slice(PREFIX.length).split('-')[0] : NaN);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(path.join(SHM, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(path.join(SHM, `${PREFIX}${process.pid}-`));
  process.env.TMPDIR = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
