import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
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
