import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { README } from '../../gateway/env-docs.js';
import { startTestApp } from '../kit/app.js';

const ROOT = path.dirname(README);

/**
 * The README's tour as a newcomer pastes it, up to the federation part (which needs a second cluster): every
 * command, run by bash against a fresh service with the shipped datasets, must work and print what the tour promises.
 */
function tourScript(readme: string, base: string): string {
  const start = readme.indexOf('```sh', readme.indexOf('## A short tour'));
  const end = readme.indexOf('\n# Federation:', start);
  if (start < 0 || end < 0) throw new Error('the README has no tour up to its federation part');
  return readme
    .slice(readme.indexOf('\n', start) + 1, end)
    .replaceAll('localhost:8080', base.replace(/^http:\/\//, ''));
}

function bash(script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // Asynchronous: the service answering the tour's requests runs in this process.
  return new Promise((resolve) => {
    execFile('bash', ['-o', 'pipefail', '-e', '-c', script], { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('README tour', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ SEED_DATASETS: 'true', SERVICE_SECRET: 'local-service-secret', JOBS_STOP_WAIT_MS: '500' }, { listen: true });
    // A working directory like a clone's: the tour reads seed/ and node_modules/, and writes its files beside them.
    dir = await mkdtemp(path.join(os.tmpdir(), 'readme-tour-'));
    await symlink(path.join(ROOT, 'seed'), path.join(dir, 'seed'));
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs as written: SyQL, a saved query run as a job whose progress is watched, and its Arrow result opened by another reader', async () => {
    const script = tourScript(await readFile(README, 'utf8'), t.url);
    const run = await bash(script, dir);
    expect(run.code, `${run.stderr}\n${run.stdout.slice(-4000)}`).toBe(0);
    const out = run.stdout;
    expect(out).not.toMatch(/internal (server )?error/i);
    expect(out).toMatch(/"status": "healthy"/);
    expect(out).toMatch(/"celegans_cook_2019_male"/);

    // SyQL exec: the promised columns, five rows and the true count beyond them.
    const exec = JSON.parse(out.slice(out.indexOf('{\n  "columns"'), out.indexOf('\n}\n', out.indexOf('{\n  "columns"')) + 2));
    expect(exec.columns).toEqual(['pre', 'post', 'c.weight']);
    expect(exec.rows).toHaveLength(5);
    expect(exec.truncated).toBe(true);
    expect(exec.total).toBeGreaterThan(5);
    // Explain: the compiled SQL binds the prefix rather than containing it.
    expect(out).toMatch(/\{p\d+:String\}/);

    // The watch loop printed the job until it ended, and it succeeded with every row.
    const polls = out.split('\n').filter((l) => l.startsWith('{"status":') && l.includes('"progress_message"')).map((l) => JSON.parse(l));
    expect(polls.length).toBeGreaterThan(0);
    const last = polls.at(-1);
    expect(last).toMatchObject({ status: 'succeeded', progress: 1, result_rows: exec.total });

    // Flechette (an Arrow implementation of its own) read the downloaded file and its provenance.
    const line = out.split('\n').find((l) => / rows \{/.test(l));
    expect(line, out.slice(-2000)).toBeDefined();
    expect(line).toMatch(new RegExp(`^${exec.total} rows `));
    expect(line).toContain('job_id');
    expect(line).toContain('MATCH (a:Neuron)-[c:Chemical]->(b:Neuron)');
    expect(line).toContain('celegans_cook_2019_male');
    expect(line).toContain('service_version');

    // The graph analysis was accepted as a job.
    expect(out).toMatch(/"job_id": "[0-9a-f-]{36}",\n\s+"status": "queued"/);
  }, 300_000);
});
