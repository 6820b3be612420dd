import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../../lib/package-root.js';
import { createUser } from '../../../test/kit/users.js';
import { entryArgs } from '../../../test/kit/processes.js';
import { startTestApp, createTestEngines, call } from '../../../test/kit/app.js';
import { configFrom } from '../../../lib/config.js';
import { runAdmin } from '../../../gateway/admin.js';

const login = (url: string, email: string, password: string) => call(url, 'POST', '/v1/user/auth/login', { body: { email, password } });

describe('SuperUser creation', () => {
  it('npm run admin -- create-superuser creates a SuperUser who can log in, and says what it did', async () => {
    const engines = await createTestEngines();
    try {
      // The CLI opens the store itself, so the app is not running meanwhile (PGlite allows one opener).
      const config = configFrom({ LOG_LEVEL: 'silent', NODE_ENV: 'test', ...engines.env });
      const email = `root-${randomUUID()}@example.org`;
      const lines: string[] = [];
      expect(await runAdmin(['create-superuser', '--email', email, '--password', 'root-password-1'], config, (l) => lines.push(l))).toBe(0);
      expect(lines.join('\n')).toMatch(/^created SuperUser .* \(id [0-9a-f-]{36}\)$/);
      expect(await runAdmin(['create-superuser', '--email', email, '--password', 'root-password-1'], config, (l) => lines.push(l))).toBe(0);
      expect(lines[1]).toMatch(/already is a SuperUser; nothing changed/);
      expect(await runAdmin(['create-superuser', '--email', email], config, (l) => lines.push(l))).toBe(2);
      expect(lines[2]).toMatch(/^usage:/);
      expect(await runAdmin(['create-superuser', '--email', 'bad', '--password', 'root-password-1'], config, (l) => lines.push(l))).toBe(1);
      expect(lines[3]).toMatch(/^refused: email:/);

      const t = await startTestApp({}, { engines });
      try {
        const tokens = await login(t.url, email, 'root-password-1');
        expect(tokens.status).toBe(200);
        const me = await call(t.url, 'GET', '/v1/user/profile', { token: tokens.body.access_token });
        expect(me.body).toMatchObject({ email, account_type: 'SUPERUSER', verified: true });
        await t.stop();
        expect(await runAdmin(['deactivate-account', '--email', email], config, (l) => lines.push(l))).toBe(0);
        expect(lines[4]).toMatch(/^deactivated .* its logins and API tokens have ended$/);
        expect(await runAdmin(['deactivate-account', '--email', 'nobody@example.org'], config, (l) => lines.push(l))).toBe(1);
        expect(lines[5]).toMatch(/^refused: no account with the email/);
        const again = await startTestApp({}, { engines });
        try {
          expect((await login(again.url, email, 'root-password-1')).body.error).toMatch(/deactivated/);
        } finally {
          await again.stop();
        }
      } finally {
        await t.close();
      }
    } finally {
      await engines.drop();
    }
  });

  it('creates the SUPERUSER_EMAIL account on first start and leaves it alone on the next', async () => {
    const engines = await createTestEngines();
    const email = `boot-${randomUUID()}@example.org`;
    try {
      const first = await startTestApp({ SUPERUSER_EMAIL: email, SUPERUSER_PASSWORD: 'bootstrap-password' }, { engines });
      const tokens = await login(first.url, email, 'bootstrap-password');
      expect(tokens.status).toBe(200);
      expect((await call(first.url, 'GET', '/v1/user/profile', { token: tokens.body.access_token })).body.account_type).toBe('SUPERUSER');
      await first.stop();
      // A changed SUPERUSER_PASSWORD does not overwrite the password of the existing account.
      const second = await startTestApp({ SUPERUSER_EMAIL: email, SUPERUSER_PASSWORD: 'another-password' }, { engines });
      expect((await login(second.url, email, 'bootstrap-password')).status).toBe(200);
      await second.stop();
    } finally {
      await engines.drop();
    }
  });

  it('refuses to start with only one of SUPERUSER_EMAIL and SUPERUSER_PASSWORD', () => {
    expect(() => configFrom({ SUPERUSER_EMAIL: 'a@example.org' })).toThrow(/set both or neither/);
  });
});

/** A Unix socket file with no listener, as a process that died leaves it. */
async function leaveDeadSocket(file: string): Promise<void> {
  const { execFileSync } = await import('node:child_process');
  // A child process listens and is killed, so its socket file stays behind.
  try {
    execFileSync(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(file)}, () => process.kill(process.pid, 'SIGKILL'))`], { stdio: 'ignore' });
  } catch {
    // Killed, as intended.
  }
  expect(existsSync(file)).toBe(true);
}

/** `npm run admin -- <argv>` as an operator runs it in another terminal: its own process, the app's environment. */
async function adminCli(env: Record<string, string>, argv: string[], stdin = ''): Promise<{ code: number | null; out: string }> {
  const entry = await entryArgs('gateway/cli/admin');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...argv], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
    child.stdin.end(stdin);
  });
}

describe('npm run admin while the service runs', () => {
  it('creates a SuperUser, verifies and unverifies accounts through the running service, and the accounts see it at once', async () => {
    // Listening, as `npm start` does; the command line is another process, as in another terminal.
    const t = await startTestApp({}, { listen: true });
    try {
      const socket = path.join(t.engines.dataDir, 'admin.sock');
      if (t.config.relational.kind === 'pglite') expect((statSync(socket).mode & 0o777).toString(8)).toBe('600');
      const me = await createUser(t);
      const made = await adminCli(t.engines.env as Record<string, string>, ['create-superuser', '--email', me.email, '--password', '-'], 'ignored: the account keeps its password\n');
      expect(made.out.trim(), made.out).toMatch(new RegExp(`^promoted existing ${me.email} \\(id ${me.id}\\) to SuperUser; its password is unchanged$`));
      expect(made.code).toBe(0);
      const tokens = await login(t.url, me.email, me.password);
      expect(tokens.status).toBe(200);
      expect((await call(t.url, 'GET', '/v1/user/profile', { token: tokens.body.access_token })).body).toMatchObject({ account_type: 'SUPERUSER', verified: true });

      const student = await createUser(t);
      const verified = await adminCli(t.engines.env as Record<string, string>, ['verify-account', '--email', student.email, '--reason', 'enrolled in the course, list from the registrar']);
      expect(verified.out.trim(), verified.out).toBe(`verified ${student.email} (id ${student.id}): it is Academic now`);
      const profile = await call(t.url, 'GET', '/v1/user/profile', { token: student.accessToken });
      expect(profile.body).toMatchObject({ account_type: 'ACADEMIC', verification: { method: 'SUPERUSER', verified_by: null, reason: 'enrolled in the course, list from the registrar' } });
      expect((await call(t.url, 'GET', '/v1/jobs', { token: student.accessToken })).status).toBe(200);

      const taken = await adminCli(t.engines.env as Record<string, string>, ['unverify-account', '--email', student.email]);
      expect(taken.out.trim(), taken.out).toBe(`took back the verification of ${student.email} (id ${student.id}): it is Regular now`);
      expect((await call(t.url, 'GET', '/v1/jobs', { token: student.accessToken })).status).toBe(403);

      const refused = await adminCli(t.engines.env as Record<string, string>, ['verify-account', '--email', 'nobody@example.org', '--reason', 'x']);
      expect([refused.code, refused.out.trim()]).toEqual([1, 'refused: no account with the email nobody@example.org']);
      const usage = await adminCli(t.engines.env as Record<string, string>, ['verify-account', '--email', student.email]);
      expect(usage.code).toBe(2);
      expect(usage.out).toMatch(/^usage:/);
    } finally {
      await t.close();
    }
  });

  it('opens the store itself when no service runs, and removes the socket file a stopped service left', async () => {
    const t = await startTestApp({}, { listen: true });
    const email = `later-${randomUUID()}@example.org`;
    const socket = path.join(t.engines.dataDir, 'admin.sock');
    try {
      await t.stop();
      expect(existsSync(socket)).toBe(false);
      // What a service killed without its shutdown leaves: a socket file nobody listens on.
      if (t.config.relational.kind === 'pglite') await leaveDeadSocket(socket);
      const made = await adminCli(t.engines.env as Record<string, string>, ['create-superuser', '--email', email, '--password', 'a long enough password']);
      expect(made.out.trim(), made.out).toMatch(/^created SuperUser /);
      expect(existsSync(socket)).toBe(false);
      const again = await startTestApp({}, { engines: t.engines });
      try {
        expect((await login(again.url, email, 'a long enough password')).status).toBe(200);
      } finally {
        await again.stop();
      }
    } finally {
      await t.engines.drop();
    }
  });
});
