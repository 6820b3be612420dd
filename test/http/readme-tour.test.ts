import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { README } from '../../gateway/env-docs.js';

const ROOT = path.dirname(README);

/** The README's tour as a newcomer pastes it: from its first command up to the federation part, which needs a second cluster. */
function tourScript(readme: string): string {
  const start = readme.indexOf('```sh', readme.indexOf('## A short tour'));
  const end = readme.indexOf('\n# Federation:', start);
  if (start < 0 || end < 0) throw new Error('the README has no tour up to its federation part');
  return readme.slice(readme.indexOf('\n', start) + 1, end);
}

/**
 * The tour runs exactly as written, `localhost:8080` and all, against `npm start` in the clone: both run in a
 * network namespace of their own, whose loopback is theirs alone, so port 8080 is free whatever else this machine
 * runs. The service gets a fresh data directory and the environment of a new shell, nothing the test suite sets.
 */
const RUNNER = `
ip link set lo up
set -m                                   # the service in a process group of its own: npm and the node it starts
npm start > "$SERVICE_LOG" 2>&1 &
service=$!
set +m
trap 'kill -TERM -- -$service 2> /dev/null; while kill -0 -- -$service 2> /dev/null; do sleep 0.1; done' EXIT
for _ in $(seq 1200); do curl -sf localhost:8080/health > /dev/null && break; kill -0 $service 2> /dev/null || exit 97; sleep 0.25; done
bash -o pipefail -e "$TOUR_SCRIPT"
`;

/** The JSON values the tour printed whole (jq's pretty output: from a line `{` or `[` to the next line `}` or `]`). */
function printedJson(out: string): unknown[] {
  const values: unknown[] = [];
  const lines = out.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const close = lines[i] === '{' ? '}' : lines[i] === '[' ? ']' : null;
    if (!close) continue;
    const end = lines.indexOf(close, i);
    if (end < 0) break;
    values.push(JSON.parse(lines.slice(i, end + 1).join('\n')));
    i = end;
  }
  return values;
}

function inNamespace(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('unshare', ['--net', 'bash', '-c', RUNNER], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024, timeout: 420_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

// A fresh `npm start` is the embedded engine set; the server-mode run would start the same service again.
describe.skipIf(Boolean(process.env.DATABASE_URL))('README tour', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'readme-tour-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs as written on a fresh npm start: an account made Academic, a token, SyQL, a job watched to its end and its Arrow result read by another reader', async () => {
    const tour = path.join(dir, 'tour.sh');
    await writeFile(tour, tourScript(await readFile(README, 'utf8')));
    const before = (await readdir(ROOT)).sort();
    const run = await inNamespace({
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? dir,
      TMPDIR: dir,
      DATA_DIR: path.join(dir, 'data'),
      SERVICE_LOG: path.join(dir, 'service.log'),
      TOUR_SCRIPT: tour,
    });
    const log = await readFile(path.join(dir, 'service.log'), 'utf8').catch(() => '');
    expect(run.code, `${run.stderr}\n${run.stdout.slice(-4000)}\n${log.slice(-3000)}`).toBe(0);
    const out = run.stdout;
    expect(out).not.toMatch(/internal (server )?error/i);
    expect(out).toMatch(/"status": "healthy"/);
    expect(out).toMatch(/"celegans_cook_2019_male"/);

    // The account the tour made was verified by the operator and reads a connectome with a read-scoped token.
    expect(out).toMatch(/"account_type": "ACADEMIC",\n\s+"verified": true/);
    const printed = printedJson(out) as Record<string, unknown>[];
    const neurons = printed.find((v) => Array.isArray(v.items) && (v.items as { neuron_id?: string }[])[0]?.neuron_id !== undefined);
    expect(neurons, out.slice(0, 4000)).toMatchObject({ version: 1, limit: 2 });
    expect(neurons!.items).toHaveLength(2);
    expect(neurons!.total).toBeGreaterThan(300);

    // SyQL exec: the promised columns, five rows and the true count beyond them.
    const exec = printed.find((v) => 'columns' in v && 'truncated' in v) as { columns: string[]; rows: unknown[]; truncated: boolean; total: number };
    expect(exec.columns).toEqual(['pre', 'post', 'c.weight']);
    expect(exec.rows).toHaveLength(5);
    expect(exec.truncated).toBe(true);
    expect(exec.total).toBeGreaterThan(5);
    // Explain: the compiled SQL binds the prefix rather than containing it.
    expect(out).toMatch(/\{p\d+:String\}/);

    // The watch loop printed the job until it ended, and it succeeded with every row.
    const polls = out.split('\n').filter((l) => l.startsWith('{"status":') && l.includes('"progress_message"')).map((l) => JSON.parse(l));
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.at(-1)).toMatchObject({ status: 'succeeded', progress: 1, result_rows: exec.total });

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

    // What the tour wrote went to its temporary folder: the clone is as it was.
    expect((await readdir(ROOT)).sort()).toEqual(before);
    const made = (await readdir(dir, { withFileTypes: true, recursive: true })).filter((e) => e.isFile()).map((e) => e.name);
    expect(made).toEqual(expect.arrayContaining(['ava.arrow', 'degrees.svg', 'bcg.svg']));
  }, 480_000);
});
