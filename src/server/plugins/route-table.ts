// Every route the app registers, as `app.routeTable`: what the authorization test, the cache contract's
// test and the generated docs/api.md (api-reference.ts) read to check every route has its rules.
import fp from 'fastify-plugin';
import type { Permission } from '../../shared/permissions';
import type { CacheContract } from '../read-cache';

export interface RouteEntry {
  method: string;
  url: string;
  /** What the route does, for the permission policy; none on public routes. */
  permission?: Permission;
  /** What its answer varies with, when it may be answered from the read cache (read-cache.ts). */
  cache?: CacheContract;
  /** Which parts of the request and answer the route's schema declares (the API reference is built from them). */
  schema?: { params: boolean; querystring: boolean; body: boolean; response: boolean; hidden: boolean };
  /** The statuses the route declares itself, before the errors every route gets are added (errors.ts). */
  answers?: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered (method + URL pattern): the authorization test checks each has a rule. */
    routeTable: readonly RouteEntry[];
  }
}

/**
 * Records each route as it is registered (an `onRoute` hook on the root instance, so it sees the routes
 * of every plugin registered after it). Its `answers` are what the route declares itself: register it
 * before error-answers.ts, whose hook adds the errors every route gets.
 */
export const routeTablePlugin = fp(
  async (app) => {
    const entries: RouteEntry[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        if (method !== 'HEAD')
          entries.push({
            method,
            url: route.url,
            permission: route.config?.permission,
            cache: route.config?.cache,
            schema: route.schema
              ? {
                  params: Boolean(route.schema.params),
                  querystring: Boolean(route.schema.querystring),
                  body: Boolean(route.schema.body),
                  response: Boolean(route.schema.response),
                  hidden: Boolean((route.schema as { hide?: boolean }).hide),
                }
              : undefined,
            answers: route.schema?.response ? Object.keys(route.schema.response) : undefined,
          });
    });
    app.decorate('routeTable', entries);
  },
  { name: 'route-table' },
);
