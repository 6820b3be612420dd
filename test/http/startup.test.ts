import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { call, createTestEngines } from '../kit/app.js';
import { startServiceProcess } from '../kit/processes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * A fresh start compiles the sources and seeds the ontologies: a few seconds alone, but a minute and more on a
 * two-core machine running the rest of the suite beside it. The tests of a fresh start allow for that.
 */
const STARTED_AFTER_ALL_MS = 150_000;
const FRESH_START_TEST_MS = STARTED_AFTER_ALL_MS + 30_000;

/** Runs `npx tsx main.ts` with exactly these variables (and PATH/HOME to find the tools); exit code and stderr. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'main.ts'], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Started after all: stop it, and the assertions below say why.
    const timer = setTimeout(() => child.kill('SIGKILL'), STARTED_AFTER_ALL_MS);
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

  it('starts afresh when the data directory does not exist (rm -rf data), from another working directory, and makes only it private', async () => {
    // Another working directory: ./data (DATA_DIR's default) is a new folder there, and the seed data is found beside
    // the code all the same. tsx is loaded by its path, with the project's tsconfig, as it would look for both in the working directory.
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'neurodata-cwd-'));
    const engines = await createTestEngines({ seeded: false });
    const seedMode = (await stat(path.join(ROOT, 'seed'))).mode & 0o777;
    try {
      const tsx = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
      const service = await startServiceProcess(
        process.execPath,
        ['--import', tsx, path.join(ROOT, 'main.ts')],
        { ...engines.env, DATA_DIR: undefined, SEED_DIR: undefined, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'), NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DATASETS: 'false' },
        { cwd },
      );
      try {
        expect((await call(service.url, 'GET', '/health')).body.status).toBe('healthy');
        const vocabularies = await call(service.url, 'GET', '/v1/ontology/vocabularies');
        expect(vocabularies.body.map((v: { name: string }) => v.name)).toEqual(expect.arrayContaining(['brain_region', 'species', 'microscopy_technique', 'neurotransmitter']));
        expect((await stat(path.join(cwd, 'data'))).mode & 0o777).toBe(0o700);
        expect((await stat(path.join(ROOT, 'seed'))).mode & 0o777).toBe(seedMode);
      } finally {
        await service.stop();
      }
    } finally {
      await engines.drop();
      await rm(cwd, { recursive: true, force: true });
    }
  }, FRESH_START_TEST_MS);

  it('stops with one line naming a missing seed file and how to get it back, exit code 1 and no stack trace', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-seed-'));
    try {
      const seedDir = path.join(dir, 'seed');
      await cp(path.join(ROOT, 'seed', 'ontology'), path.join(seedDir, 'ontology'), { recursive: true });
      await rm(path.join(seedDir, 'ontology', 'species.csv'));
      const { code, stderr } = await start({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: path.join(dir, 'data'), SEED_DIR: seedDir, SEED_DATASETS: 'false' });
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `seed file ${path.join(seedDir, 'ontology', 'species.csv')} is missing: restore it, or point SEED_DIR at a complete copy of the shipped seed/ folder`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, FRESH_START_TEST_MS);

  it('names a shipped connectome\'s missing file the same way when it publishes the shipped datasets', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-seed-'));
    try {
      const seedDir = path.join(dir, 'seed');
      await cp(path.join(ROOT, 'seed'), seedDir, { recursive: true });
      // The first connectome the seeder reads (folders in name order).
      const first = (await readdir(path.join(seedDir, 'connectomes'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort()[0];
      await rm(path.join(seedDir, 'connectomes', first, 'neurons.csv'));
      const { code, stderr } = await start({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: path.join(dir, 'data'), SEED_DIR: seedDir, SEED_DATASETS: 'true' });
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `seed file ${path.join(seedDir, 'connectomes', first, 'neurons.csv')} is missing: restore it, or point SEED_DIR at a complete copy of the shipped seed/ folder`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, FRESH_START_TEST_MS);
});
