import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Makes the directory tree at `dir` refuse every change, as a disk remounted read-only or a volume whose
 * permissions went wrong does, and returns how to undo it; null when this machine cannot (then skip the test).
 * As root, only the immutable attribute stops writes (`chattr -R +i`, which tmpfs and ext4 accept given
 * CAP_LINUX_IMMUTABLE); any other user loses write permission instead.
 */
export function freezeDir(dir: string): (() => void) | null {
  if (process.getuid?.() === 0) {
    try {
      execFileSync('chattr', ['-R', '+i', dir], { stdio: 'ignore' });
    } catch {
      return null;
    }
    return () => execFileSync('chattr', ['-R', '-i', dir], { stdio: 'ignore' });
  }
  const modes = new Map<string, number>();
  const walk = (p: string) => {
    const st = statSync(p);
    modes.set(p, st.mode & 0o7777);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  for (const [p, mode] of modes) chmodSync(p, mode & ~0o222);
  return () => {
    for (const [p, mode] of [...modes].reverse()) chmodSync(p, mode);
  };
}
