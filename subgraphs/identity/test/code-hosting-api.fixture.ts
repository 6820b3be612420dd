import Fastify, { type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';

/** A code-hosting user as its REST API shows it, keyed by the authorization server's subject. */
export interface TestCodeHostingUser {
  id: number;
  login: string;
  name?: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

export interface TestCodeHostingApi {
  url: string;
  /** How many requests carried a token the authorization server confirmed. */
  authorizedRequests(): number;
  close(): Promise<void>;
}

/**
 * A GitHub-style REST API on loopback (`GET /user`, `GET /user/emails`) that trusts nothing but the authorization
 * server: every Bearer token is checked at its introspection endpoint with the resource server's own client
 * credentials, and must be active, carry `user:email` and be meant for this API.
 */
export async function startTestCodeHostingApi(opts: {
  introspectionEndpoint: string;
  client: { id: string; secret: string };
  audience: string;
  users: Record<string, TestCodeHostingUser>;
}): Promise<TestCodeHostingApi> {
  const app = Fastify();
  let authorized = 0;
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(opts.client.id)}:${encodeURIComponent(opts.client.secret)}`).toString('base64')}`;

  async function userOf(request: FastifyRequest): Promise<TestCodeHostingUser | null> {
    const match = /^Bearer (.+)$/i.exec(String(request.headers.authorization ?? ''));
    if (!match) return null;
    const res = await fetch(opts.introspectionEndpoint, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: match[1] }),
    });
    const token = (await res.json()) as { active?: boolean; sub?: string; scope?: string; aud?: string | string[] };
    const audiences = Array.isArray(token.aud) ? token.aud : [token.aud];
    if (!token.active || !token.sub || !audiences.includes(opts.audience) || !String(token.scope ?? '').split(' ').includes('user:email')) return null;
    authorized++;
    return opts.users[token.sub] ?? null;
  }

  app.get('/user', async (request, reply) => {
    const user = await userOf(request);
    if (!user) return reply.code(401).send({ message: 'Bad credentials' });
    return { id: user.id, login: user.login, name: user.name ?? null, html_url: `https://code-hosting.test/${user.login}` };
  });
  app.get('/user/emails', async (request, reply) => {
    const user = await userOf(request);
    if (!user) return reply.code(401).send({ message: 'Bad credentials' });
    return user.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null }));
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    authorizedRequests: () => authorized,
    close: () => app.close(),
  };
}
