import { describe, it, expect } from 'vitest';
import Fastify from 'fastify';
import { handleError } from './errors.js';

describe('handleError', () => {
  it('answers a header Node cannot write with the API error body, without that header', async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler(handleError);
    app.get('/redirect', async (_request, reply) => reply.header('x-kept', 'yes').redirect('/\u3002evil', 303));
    try {
      const r = await app.inject({ method: 'GET', url: '/redirect' });
      expect(r.statusCode).toBe(500);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.json()).toEqual({ error: expect.any(String) });
      expect(r.json().error).not.toMatch(/ERR_INVALID_CHAR/);
      expect(r.headers.location).toBeUndefined();
      expect(r.headers['x-kept']).toBe('yes');
    } finally {
      await app.close();
    }
  });
});
