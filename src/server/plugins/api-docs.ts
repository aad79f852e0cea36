// The API reference (docs/decisions/028): the OpenAPI 3.1 document generated from the routes' zod
// schemas, served as JSON at /api/openapi.json, and the interactive reference (Swagger UI) over it at
// /api/docs. docs/api.md's route table is generated from the same document (api-reference.ts).
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from '../auth/sessions';
import { describeErrorAnswers } from '../errors';

/** Where the interactive API reference is served (its page, scripts and a copy of the document). */
export const API_DOCS_PATH = '/api/docs';

/**
 * On the root instance: the document lists the routes registered after it (register it before every
 * route), and the reference's own routes take the hooks registered before it (register it after them).
 */
export const apiDocsPlugin = fp(
  async (app) => {
    // Collected as routes are registered (an `onRoute` hook), built when the document is first asked for.
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Super Mall API',
          version: '1',
          description:
            'Generated from the route schemas. Errors, sign-in, CSRF and caching rules: docs/api.md in the repository.',
        },
        components: {
          securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
        },
      },
      // A module's root route is registered as its prefix plus '/': listed as the URL it answers.
      // Each route is tagged with its path's first segment after /api (shops, offers…): the interactive
      // reference groups them so.
      // Every error answer refers to the one `ApiError` component, with what its status means.
      transform: (input) => {
        const output = jsonSchemaTransform(input);
        const url = output.url.length > 1 ? output.url.replace(/\/$/, '') : output.url;
        const tag = url.split('/')[2];
        const schema = output.schema as { tags?: string[]; response?: Record<string, unknown> } | undefined;
        describeErrorAnswers(schema?.response);
        if (!tag || schema?.tags) return { ...output, url };
        return { ...output, url, schema: { ...output.schema, tags: [tag] } };
      },
      // The schemas registered with an id (the error body, `ApiError`) as components the answers refer to.
      transformObject: (input) => withoutUnusedSchemas(jsonSchemaTransformObject(input)),
    });
    // Public: the API reference (OpenAPI 3.1) generated from every route's schema.
    app.get('/api/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return app.swagger();
    });
    // Public: the interactive reference (Swagger UI) over the same document (docs/decisions/028). Its page
    // loads external scripts and stylesheets only, so it runs under our CSP (security-headers.ts) as it
    // is: the plugin's own CSP stays off, every answer keeps ours.
    await app.register(fastifySwaggerUi, {
      routePrefix: API_DOCS_PATH,
      staticCSP: false,
      theme: { title: 'Super Mall API reference' },
      // Swagger UI's top bar draws its logo as an SVG with a <style> element in it, which our style-src
      // refuses: the base layout has no top bar (nor its box for loading another document).
      uiConfig: {
        layout: 'BaseLayout',
        deepLinking: true,
        displayRequestDuration: true,
        docExpansion: 'list',
      },
      // The page, its start-up script and its copy of the document follow the routes: always revalidated
      // (the plugin's static files set their own max-age=0).
      uiHooks: {
        onRequest: (_request, reply, done) => {
          reply.header('cache-control', 'no-cache');
          done();
        },
      },
    });
  },
  { name: 'api-docs' },
);

/**
 * The OpenAPI document without the component schemas nothing refers to: zod's registry gives each
 * schema with an id an input copy too (`ApiErrorInput`), which no operation uses.
 */
export function withoutUnusedSchemas<T extends object>(document: T): T {
  const { components } = document as { components?: { schemas?: Record<string, unknown> } };
  const schemas = components?.schemas;
  if (!schemas) return document;
  const refersTo = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1] ?? '');
  const used = new Set(refersTo({ ...document, components: { ...components, schemas: {} } }));
  // And what those refer to in turn (a Set's for…of visits what is added during it).
  for (const name of used) for (const inner of refersTo(schemas[name])) used.add(inner);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...components, schemas: kept } };
}
