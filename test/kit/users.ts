import { randomBytes } from 'node:crypto';
import { identity } from '../../subgraphs/identity/index.js';
import { newId } from '../../lib/ids.js';
import { call, type TestApp } from './app.js';

export type TestAccountType = 'REGULAR' | 'ACADEMIC' | 'SERVICE' | 'SUPERUSER';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

async function expectStatus(res: { status: number; body: unknown }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Creates a real account through the identity service and logs it in over HTTP, so each test seeds its own users.
 * Regular accounts register over HTTP; Academic ones register and are then marked verified the way institutional
 * verification does; Service accounts use register-service when the app has a SERVICE_SECRET; SuperUsers are
 * created as the admin CLI does.
 */
export async function createUser(
  t: TestApp,
  opts: { accountType?: TestAccountType; email?: string; password?: string } = {},
): Promise<TestUser> {
  const accountType = opts.accountType ?? 'REGULAR';
  const email = opts.email ?? `${accountType.toLowerCase()}-${newId()}@example.org`;
  const password = opts.password ?? `pw-${randomBytes(12).toString('base64url')}`;
  const displayName = `Test ${accountType.toLowerCase()} ${email.split('@')[0].slice(-6)}`;
  const admin = await identity.use(t.app.deps).accountAdmin();
  let id: string;
  if (accountType === 'REGULAR' || accountType === 'ACADEMIC') {
    const res = await call(t.url, 'POST', '/v1/user/auth/register', { body: { email, password, display_name: displayName } });
    await expectStatus(res, 201, 'register');
    id = res.body.id;
    if (accountType === 'ACADEMIC') await admin.markAcademicVerified(id);
  } else if (accountType === 'SERVICE') {
    if (t.config.auth.serviceSecret) {
      const res = await call(t.url, 'POST', '/v1/user/auth/register-service', {
        body: { email, password },
        headers: { 'x-service-secret': t.config.auth.serviceSecret },
      });
      await expectStatus(res, 201, 'register-service');
      id = res.body.id;
    } else {
      id = (await admin.createServiceAccount({ email, password, display_name: displayName })).id;
    }
  } else {
    id = (await admin.createSuperUser({ email, password, display_name: displayName })).account.id;
  }
  const login = await call(t.url, 'POST', '/v1/user/auth/login', { body: { email, password } });
  await expectStatus(login, 200, 'login');
  return { id, email, password, accessToken: login.body.access_token, refreshToken: login.body.refresh_token };
}

/** Makes a personal API token for a signed-in test user over HTTP; returns the token and its id. */
export async function createApiToken(
  t: TestApp,
  user: Pick<TestUser, 'accessToken'>,
  scope: 'read' | 'compute' | 'write',
  opts: { name?: string; expiresInDays?: number } = {},
): Promise<{ token: string; id: string }> {
  const res = await call(t.url, 'POST', '/v1/user/tokens', {
    token: user.accessToken,
    body: { name: opts.name ?? `${scope} token`, scope, ...(opts.expiresInDays ? { expires_in_days: opts.expiresInDays } : {}) },
  });
  await expectStatus(res, 201, 'create API token');
  return { token: res.body.token, id: res.body.api_token.id };
}
