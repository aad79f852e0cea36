// Every answer a route can give is in the API reference (docs/decisions/028): its success, the errors any
// route can give (declared on every route by errors.ts `declareCommonErrors`) and its own (declared by the
// route: `response: { 200: Shop, ...errorAnswers(404, 409) }`), each error as the one `ApiError` body.
// The whole API suite enforces the rest: the harness fails a test file whose app answered a status its
// route does not declare (errors.ts `checkDeclaredStatuses`); the last tests here prove that check.
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { whoMayCall } from './api-reference';
import type { RouteEntry } from './app';
import {
  checkDeclaredStatuses,
  declareCommonErrors,
  declaresStatus,
  ERROR_MEANINGS,
  errorAnswers,
  HttpError,
  registerErrorHandler,
  type UndeclaredStatus,
} from './errors';
import { createTestApp, type TestApp } from './test/harness';

interface Answer {
  description?: string;
  content?: Record<string, { schema?: { $ref?: string } }>;
}
interface Document {
  paths: Record<string, Record<string, { responses?: Record<string, Answer> }>>;
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
}

const API_ERROR_REF = '#/components/schemas/ApiError';

/** The errors any route can give, from what it declares: the rule written out again, on its own. */
function commonErrors(route: RouteEntry): string[] {
  const expected = ['429', '500', '503'];
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) expected.push('400', '403', '413', '415');
  if (route.schema?.querystring || route.schema?.body) expected.push('400');
  if (route.schema?.params) expected.push('400', '404', '414');
  if (route.permission) {
    expected.push('401');
    if (whoMayCall(route.permission) !== 'signed in') expected.push('403');
  }
  if (route.cache && route.method === 'GET') expected.push('304');
  return [...new Set(expected)].sort();
}

let t: TestApp;
let document: Document;
/** Every documented /api route with its operation in the served document. */
let operations: { name: string; route: RouteEntry; responses: Record<string, Answer> }[];
beforeAll(async () => {
  t = await createTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  operations = t.app.routeTable
    .filter((route) => route.url.startsWith('/api/') && route.schema && !route.schema.hidden)
    .filter((route) => route.method !== 'OPTIONS')
    .map((route) => {
      // A module's root route answers without its slash too: one operation, under the URL without it.
      const path = route.url.replace(/\/$/, '').replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      if (!operation) throw new Error(`${route.method} ${route.url} is not in the document`);
      return { name: `${route.method} ${route.url}`, route, responses: operation.responses ?? {} };
    });
});
afterAll(async () => {
  await t?.close();
});

describe('the error answers in the API reference', () => {
  it('holds the one error body once, as the ApiError component, and every error answer refers to it', () => {
    const component = document.components?.schemas?.ApiError;
    expect(component?.properties).toHaveProperty('error');
    // zod's input copy of it is not listed: nothing refers to it.
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(['ApiError']);
    const wrong: string[] = [];
    for (const { name, responses } of operations)
      for (const [status, answer] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const ref = answer.content?.['application/json']?.schema?.$ref;
        const meaning = ERROR_MEANINGS[Number(status) as keyof typeof ERROR_MEANINGS];
        if (ref !== API_ERROR_REF || !meaning || answer.description !== meaning)
          wrong.push(`${name} ${status}: ${JSON.stringify(answer)}`);
      }
    expect(wrong).toEqual([]);
    expect(operations.length).toBeGreaterThan(50);
  });

  it('every operation declares the errors any route can give', () => {
    const missing = operations.flatMap(({ name, route, responses }) =>
      commonErrors(route)
        .filter((status) => !(status in responses))
        .map((status) => `${name} ${status}`),
    );
    expect(missing).toEqual([]);
    // Spot checks of the rule itself.
    const of = (name: string) => operations.find((operation) => operation.name === name)?.responses ?? {};
    expect(Object.keys(of('DELETE /api/shops/:id')).sort()).toEqual(
      ['204', '400', '401', '403', '404', '413', '414', '415', '429', '500', '503'].sort(),
    );
    // A cached read: 304 too; a public one no 401.
    expect(of('GET /api/mall-hours')).toHaveProperty('304');
    expect(of('GET /api/mall-hours')).not.toHaveProperty('401');
  });

  it('every operation declares its success answer (a DELETE its 204), none left to the placeholder', () => {
    const problems: string[] = [];
    for (const { name, route, responses } of operations) {
      const success = Object.entries(responses).filter(([status]) => status.startsWith('2'));
      if (success.length === 0) problems.push(`${name}: no 2xx`);
      for (const [status, answer] of success)
        if (answer.description === 'Default Response' && !answer.content)
          problems.push(`${name} ${status}: the placeholder, not a declared answer`);
      // A DELETE that answers no body says so (the image removals answer { image: null }).
      if (route.method === 'DELETE' && !('204' in responses) && !('200' in responses))
        problems.push(`${name}: a DELETE without its 204`);
    }
    expect(problems).toEqual([]);
  });

  it('each route declares its own errors beside the common ones', () => {
    const own = (name: string) =>
      operations.find((operation) => operation.name === name)?.route.answers ?? [];
    expect(own('POST /api/auth/login')).toContain('401');
    expect(own('POST /api/auth/register')).toEqual(expect.arrayContaining(['403', '409']));
    expect(own('DELETE /api/categories/:id')).toEqual(expect.arrayContaining(['204', '404', '409']));
    expect(own('PUT /api/shops/:id/logo')).toEqual(expect.arrayContaining(['413', '415', '422']));
  });
});

describe('the check of undeclared answers (every API test app runs it)', () => {
  it('reports an answer whose status the route does not declare, and nothing else', async () => {
    const reported: UndeclaredStatus[] = [];
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    app.addHook('onRoute', (route) => declareCommonErrors(route));
    checkDeclaredStatuses(app, (undeclared) => reported.push(undeclared));
    const Ok = z.object({ ok: z.boolean() });
    app.get(
      '/api/things/:id',
      { schema: { params: z.object({ id: z.string() }), response: { 200: Ok } } },
      (request) => {
        if (request.params.id === 'teapot') throw new HttpError(418, 'TEAPOT', 'I am a teapot');
        if (request.params.id === 'busy') throw new HttpError(503, 'OVERLOADED', 'Busy');
        if (request.params.id === 'taken') throw new HttpError(409, 'DUPLICATE', 'Taken');
        return { ok: true };
      },
    );
    app.post(
      '/api/things',
      { schema: { body: Ok, response: { 201: Ok, ...errorAnswers(409) } } },
      (request) => {
        throw new HttpError(409, 'DUPLICATE', String(request.body.ok));
      },
    );
    app.get('/api/unschemed', () => ({ ok: true }));
    await app.ready();
    try {
      const statuses: number[] = [];
      for (const url of ['/api/things/a', '/api/things/teapot', '/api/things/busy', '/api/things/taken'])
        statuses.push((await app.inject({ method: 'GET', url })).statusCode);
      statuses.push(
        (await app.inject({ method: 'POST', url: '/api/things', payload: { ok: true } })).statusCode,
      );
      statuses.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/things',
            payload: '{',
            headers: { 'content-type': 'application/json' },
          })
        ).statusCode,
      );
      // Not routes the reference lists: an unknown path, a route without a schema.
      statuses.push((await app.inject({ method: 'GET', url: '/api/nowhere' })).statusCode);
      statuses.push((await app.inject({ method: 'GET', url: '/api/unschemed' })).statusCode);
      expect(statuses).toEqual([200, 418, 503, 409, 409, 400, 404, 200]);
      expect(reported).toEqual([
        { method: 'GET', route: '/api/things/:id', status: 418 },
        { method: 'GET', route: '/api/things/:id', status: 409 },
      ]);
      // The error body passes through its declared schema unchanged.
      const taken = await app.inject({ method: 'POST', url: '/api/things', payload: { ok: false } });
      expect(taken.json()).toEqual({ error: { code: 'DUPLICATE', message: 'false' } });
    } finally {
      await app.close();
    }
  });

  it('counts a status as declared by itself, its class or default', () => {
    expect(declaresStatus({ 200: {}, 404: {} }, 404)).toBe(true);
    expect(declaresStatus({ 200: {}, '4xx': {} }, 409)).toBe(true);
    expect(declaresStatus({ 200: {}, '4XX': {} }, 409)).toBe(true);
    expect(declaresStatus({ 200: {}, default: {} }, 500)).toBe(true);
    expect(declaresStatus({ 200: {}, 404: {} }, 409)).toBe(false);
    expect(declaresStatus(undefined, 200)).toBe(false);
  });
});
