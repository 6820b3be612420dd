import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AccessClass, requireAccess, ruleOfField, type AccessRule } from '../lib/access.js';
import type { RequestContext } from '../lib/context.js';
import { AppError } from '../lib/errors.js';
import { handlerTokenNeed, type Route } from './route-table.js';
import { sendExposedError } from '../lib/error-reply.js';

/**
 * What a route needs of its caller: its field's rule for a GraphQL route; for a hand-written one its declared class,
 * and callers of other clusters only where it reads (GET), as for the operations behind it.
 */
export function ruleOfRoute(route: Route): AccessRule | undefined {
  if (route.kind === 'graphql') return ruleOfField(route.field);
  return {
    required: route.access,
    remoteCallers: route.method === 'GET',
    name: `${route.method} ${route.path}`,
    writes: route.method !== 'GET',
    token: handlerTokenNeed(route),
  };
}

/**
 * An onRequest hook that answers 401 or 403 before anything of the request is read: the body is not parsed yet (so
 * neither its JSON nor its size is looked at), the query string and path parameters are not validated, and nothing
 * runs. A caller who may not use a route learns nothing of what it takes, and "sign in" is never confused with
 * "fix your body". Public routes get no hook. The context is built here once and reused by the route.
 */
export function accessGate(route: Route, makeContext: (request: FastifyRequest) => Promise<RequestContext>): onRequestAsyncHookHandler | undefined {
  const rule = ruleOfRoute(route);
  if (!rule || (rule.required === AccessClass.Public && rule.token !== 'login')) return undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await requireAccess(await makeContext(request), rule);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // Answered here, the request goes no further.
      return sendExposedError(reply, e.status, e);
    }
  };
}
