// The API reference is generated from the routes' schemas (docs/decisions/028): every /api route must
// declare what it takes and answers, and appears in /api/openapi.json. A new route without a schema
// fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DOCS_PATH, type RouteEntry } from './app';
import { createTestApp, type TestApp } from './test/harness';

/**
 * Routes that take no body although written to, or answer without one: each with its reason. Anything
 * else that writes must declare a body, anything with a `:param` its params, and everything an answer.
 */
const NO_BODY = new Set([
  'POST /api/auth/logout', // ends the session of the cookie
  'POST /api/account/sign-out-everywhere', // ends every session of the cookie's person
  'POST /api/admin/invites', // a new random code, nothing to choose
  'POST /api/shops/:id/manager-invites', // the shop is in the path
  // multipart: one image file, decoded and checked by the route (docs/decisions/020), not a JSON body
  'PUT /api/shops/:id/logo',
  'PUT /api/shops/:id/cover',
  'PUT /api/products/:id/photo',
  'PUT /api/floors/:id/plan',
  'PUT /api/mall/profile/logo',
  'PUT /api/events/:id/image',
]);
const NO_SCHEMA = new Set([
  'GET /api/health', // for load balancers: { status }, outside the API proper
  'GET /api/openapi.json', // the reference itself
]);

/** The interactive reference (@fastify/swagger-ui): its page, its files and its copy of the document. */
const isDocsPage = (url: string) => url === API_DOCS_PATH || url.startsWith(`${API_DOCS_PATH}/`);

/** What the rule finds wrong with a table of routes (empty when every route complies). */
function schemaProblems(routes: readonly RouteEntry[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    if (!route.url.startsWith('/api/')) continue;
    const name = `${route.method} ${route.url}`;
    if (NO_SCHEMA.has(name) || isDocsPage(route.url)) continue;
    const schema = route.schema;
    if (!schema) {
      problems.push(`${name}: no schema`);
      continue;
    }
    if (route.url.includes(':') && !schema.params)
      problems.push(`${name}: path parameters without a params schema`);
    if (['POST', 'PUT', 'PATCH'].includes(route.method) && !schema.body && !NO_BODY.has(name))
      problems.push(`${name}: a write without a body schema`);
    // every route declares its answer: a DELETE its 204, a file its media type (CSV, images)
    if (!schema.response) problems.push(`${name}: no response schema`);
  }
  return problems;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the generated API reference', () => {
  it('every /api route declares its params, body and answer', () => {
    expect(schemaProblems(t.app.routeTable)).toEqual([]);
  });

  it('the rule catches a route without a schema, or without params, body or answer', () => {
    const none = { params: false, querystring: false, body: false, response: false, hidden: false };
    expect(
      schemaProblems([
        { method: 'GET', url: '/api/things' },
        { method: 'GET', url: '/api/things/:id', schema: { ...none, response: true } },
        { method: 'POST', url: '/api/things', schema: { ...none, response: true } },
        { method: 'GET', url: '/api/other', schema: none },
        { method: 'DELETE', url: '/api/things/:id', schema: { ...none, params: true } },
      ]),
    ).toEqual([
      'GET /api/things: no schema',
      'GET /api/things/:id: path parameters without a params schema',
      'POST /api/things: a write without a body schema',
      'GET /api/other: no response schema',
      // a DELETE declares its 204 like any answer
      'DELETE /api/things/:id: no response schema',
    ]);
  });

  it('serves OpenAPI 3.1 at /api/openapi.json with every route, its inputs and answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const listed = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const routes = t.app.routeTable.filter(
      (route) => route.url.startsWith('/api/') && !route.schema?.hidden && route.method !== 'OPTIONS',
    );
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes)
      expect(listed, `${route.method} ${route.url}`).toContain(`${route.method} ${route.url}`);
    // Inputs and answers come from the zod schemas.
    const createShop = document.paths['/api/shops'].post;
    expect(createShop.requestBody.content['application/json'].schema.properties).toHaveProperty('name');
    expect(createShop.responses['201'] ?? createShop.responses['200']).toBeDefined();
    const listShops = document.paths['/api/shops'].get;
    expect(listShops.parameters.map((p: { name: string }) => p.name)).toContain('page');
  });
});
