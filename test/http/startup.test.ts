import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs `npx tsx main.ts` with exactly these variables (and PATH/HOME to find the tools); exit code and stderr. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'main.ts'], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Started after all: stop it, and the assertions below say why.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('npm start', () => {
  it('stops with every configuration problem at once, exit code 1 and no stack trace, before it opens anything', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-start-'));
    try {
      const { code, stderr } = await start({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PORT: '0',
        DATA_DIR: dataDir,
        TOKEN_SECRET_KEY: 'k4.secret.not-a-key',
        TOKEN_PUBLIC_KEYS: `k4.public.${Buffer.alloc(32, 7).toString('base64url')},k4.public.too-short`,
        SUPERUSER_EMAIL: 'root@example.org',
        SUPERUSER_PASSWORD: 'short',
      });
      expect(code).toBe(1);
      expect(stderr).toContain('invalid configuration');
      expect(stderr).toMatch(/TOKEN_SECRET_KEY: not a valid PASERK k4\.secret key/);
      expect(stderr).toMatch(/TOKEN_PUBLIC_KEYS: entry 2 is not a valid PASERK k4\.public key/);
      expect(stderr).toMatch(/SUPERUSER_PASSWORD: must be 8 to 1024 characters long/);
      expect(stderr).not.toContain('not-a-key');
      expect(stderr).not.toMatch(/^\s+at /m);
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stops with a message naming DATABASE_URL when PostgreSQL cannot be reached, without a stack trace', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-start-'));
    try {
      // Port 1 on loopback: nothing listens there, so the connection is refused at once.
      const { code, stderr } = await start({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/neurodata' });
      expect(code).toBe(1);
      expect(stderr).toMatch(/DATABASE_URL: cannot use PostgreSQL at 127\.0\.0\.1:1\/neurodata/);
      expect(stderr).not.toMatch(/^\s+at /m);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
