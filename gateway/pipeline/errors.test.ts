import { describe, it, expect } from 'vitest';
import Fastify from 'fastify';
import { handleError } from './errors.js';
import { Forbidden, GENERIC_SERVER_ERROR, ServiceUnavailable, statusOfThrown } from '../../lib/errors.js';

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

describe('errors thrown by a route', () => {
  it('are answered by their code, 503 with its message and any other fault as the generic 500, with X-Error-Code', async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler(handleError);
    app.get('/unavailable', async () => {
      throw new ServiceUnavailable('object storage is unavailable; try again later', new Error('EACCES /srv/objects'));
    });
    app.get('/academic', async () => {
      throw new Forbidden('this operation needs a verified academic account', 'ACADEMIC_REQUIRED');
    });
    app.get('/fault', async () => {
      throw Object.assign(new Error('connection string postgres://secret@db'), { statusCode: 502 });
    });
    app.get('/framework', async () => {
      throw Object.assign(new Error('too many parts'), { statusCode: 413 });
    });
    try {
      const unavailable = await app.inject({ method: 'GET', url: '/unavailable' });
      expect([unavailable.statusCode, unavailable.json(), unavailable.headers['x-error-code']]).toEqual([503, { error: 'object storage is unavailable; try again later' }, 'SERVICE_UNAVAILABLE']);
      const academic = await app.inject({ method: 'GET', url: '/academic' });
      expect([academic.statusCode, academic.headers['x-error-code'], academic.headers['x-error-reason']]).toEqual([403, 'FORBIDDEN', 'ACADEMIC_REQUIRED']);
      const fault = await app.inject({ method: 'GET', url: '/fault' });
      expect([fault.statusCode, fault.json(), fault.headers['x-error-code']]).toEqual([500, { error: GENERIC_SERVER_ERROR }, 'INTERNAL_SERVER_ERROR']);
      const framework = await app.inject({ method: 'GET', url: '/framework' });
      expect([framework.statusCode, framework.json(), framework.headers['x-error-code']]).toEqual([413, { error: 'too many parts' }, 'PAYLOAD_TOO_LARGE']);
    } finally {
      await app.close();
    }
  });

  it('have the status the API answers them with wherever they are caught (statusOfThrown)', () => {
    expect(statusOfThrown(new ServiceUnavailable('store unavailable'))).toBe(503);
    expect(statusOfThrown(new Forbidden())).toBe(403);
    expect(statusOfThrown(Object.assign(new Error('x'), { status: 400 }))).toBe(400);
    expect(statusOfThrown(Object.assign(new Error('x'), { statusCode: 503 }))).toBe(500);
    expect(statusOfThrown(new Error('x'))).toBe(500);
    expect(statusOfThrown('a string')).toBe(500);
  });
});
