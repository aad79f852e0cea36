import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ApiErrorBody, AUTH_MESSAGES } from '../shared/errors';
import { whoMayCall } from './api-reference';

/** An expected failure with a status, a stable code and a message fit to show a person. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const unauthenticated = () => new HttpError(401, 'UNAUTHENTICATED', 'Please sign in to continue');
export const forbidden = (message = 'You do not have permission to do this') =>
  new HttpError(403, 'FORBIDDEN', message);

export function errorBody(code: string, message: string, fields?: Record<string, string>): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/**
 * The one error body (ApiErrorBody) as a schema: every error answer of every route declares it, and the
 * OpenAPI document holds it once, as the component `ApiError` (its id), which each answer refers to.
 */
export const ApiError = z
  .object({
    error: z.object({
      code: z.string().describe('Stable, for programs: VALIDATION, NOT_FOUND, FORBIDDEN, RATE_LIMITED…'),
      message: z.string().describe('Fit to show a person'),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .describe('Field name → the message the form shows under that field'),
    }),
  })
  .meta({ id: 'ApiError', description: 'The body of every failed API request' });

// The schema and the shared type are one shape: a change to either alone fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const API_ERROR_IS_API_ERROR_BODY: Same<z.output<typeof ApiError>, ApiErrorBody> = true;

/** What each error status means, as the API reference says it beside the `ApiError` body. */
export const ERROR_MEANINGS = {
  400: 'The request is not valid: `VALIDATION` (with `fields`), malformed JSON, an empty body…',
  401: 'Not signed in (`UNAUTHENTICATED`), or wrong credentials',
  403: 'Not allowed: the permission policy (`FORBIDDEN`), or a write from another site (`CROSS_SITE`)',
  404: 'No such record (a path that names none included)',
  409: 'In conflict with the current state: a duplicate, a record in use, a change since it was read…',
  413: 'The body is too large',
  414: 'A path parameter is longer than any record has (`MAX_PARAM_LENGTH`)',
  415: 'The body is of a type this route does not read',
  422: 'The file cannot be used (an image that cannot be read, too small, too many pixels…)',
  429: 'Too many requests from this address (`RATE_LIMITED`), or sign-in locked (`LOCKED`)',
  500: 'The server failed (`INTERNAL`); nothing of the cause is said',
  503: 'Too busy (`OVERLOADED`, `IMPORTS_BUSY`…) or the database briefly unreachable (`DATABASE_UNAVAILABLE`): try again after `Retry-After` seconds',
} as const;
export type ErrorStatus = keyof typeof ERROR_MEANINGS;

/**
 * A route's own error answers, beside those every route gets (`declareCommonErrors`):
 * `response: { 200: Shop, ...errorAnswers(404, 409) }`. Each is the one `ApiError` body.
 */
export function errorAnswers<S extends ErrorStatus>(...statuses: S[]): Record<S, typeof ApiError> {
  return Object.fromEntries(statuses.map((status) => [status, ApiError])) as Record<S, typeof ApiError>;
}

/** A 204's answer: no body. `response: { 204: NoContent, ...errorAnswers(404) }` on a DELETE. */
export const NoContent = z.undefined().describe('Done; no body');
/** The read cache's answer to a current If-None-Match (read-cache.ts): no body. */
export const NotModified = z.undefined().describe('Not modified: the copy named by If-None-Match is current');

/** Methods that carry a body: its size, type and JSON can be refused, and the CSRF check applies. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error answers any route can give, from what it declares (an `onRoute` hook, plugins/error-answers.ts): added to its
 * `schema.response` where the route says nothing of that status itself, so that the API reference and
 * the serializer know them. Every route: 429 (rate limit, lockout), 500, 503 (overload). A route that
 * takes a body (POST, PUT, PATCH, DELETE): 400 (malformed JSON), 403 (another site), 413, 415. A query
 * or body schema: 400. A params schema: 404 (a path that names no possible record), 400 and 414 (badly encoded or too long). A permission: 401,
 * and 403 when the policy refuses someone. A cached read: 304. Routes without a schema (the health
 * check) or hidden from the reference are left alone.
 */
export function declareCommonErrors(route: Pick<RouteOptions, 'method' | 'schema' | 'config'>): void {
  const schema = route.schema as (RouteOptions['schema'] & { hide?: boolean }) | undefined;
  if (!schema || schema.hide) return;
  const methods = [route.method].flat();
  const statuses = new Set<ErrorStatus>([429, 500, 503]);
  const add = (...more: ErrorStatus[]) => {
    for (const status of more) statuses.add(status);
  };
  if (methods.some((method) => BODY_METHODS.has(method))) add(400, 403, 413, 415);
  if (schema.querystring || schema.body) add(400);
  // a path parameter: a badly encoded one (`BAD_URL`) is a 400, one longer than the router takes a 414
  if (schema.params) add(400, 404, 414);
  const permission = route.config?.permission;
  if (permission) {
    add(401);
    if (whoMayCall(permission) !== 'signed in') add(403);
  }
  const response: Record<string, unknown> = { ...(schema.response as Record<string, unknown> | undefined) };
  for (const status of [...statuses].sort()) response[status] ??= ApiError;
  if (route.config?.cache && methods.includes('GET')) response[304] ??= NotModified;
  route.schema = { ...schema, response };
}

/**
 * The OpenAPI answers of one operation, each error referring to the `ApiError` component with what its
 * status means (the swagger transform, plugins/api-docs.ts): the component alone would give each the same words.
 */
export function describeErrorAnswers(response: Record<string, unknown> | undefined): void {
  if (!response) return;
  for (const [status, answer] of Object.entries(response)) {
    const meaning = ERROR_MEANINGS[Number(status) as ErrorStatus];
    const ref = (answer as { $ref?: unknown } | null)?.$ref;
    if (meaning && typeof ref === 'string' && ref.endsWith('/ApiError'))
      response[status] = { ...(answer as object), description: meaning };
  }
}

/** Whether a route's `schema.response` declares `status`: itself, its class (`4xx`) or `default`. */
export function declaresStatus(response: Record<string, unknown> | undefined, status: number): boolean {
  if (!response) return false;
  const keys = new Set(Object.keys(response).map((key) => key.toLowerCase()));
  return keys.has(String(status)) || keys.has(`${String(status)[0]}xx`) || keys.has('default');
}

/** An answer whose status the route does not declare: what the check reports. */
export interface UndeclaredStatus {
  method: string;
  route: string;
  status: number;
}

/**
 * Tests only (the API harness turns it on): reports every answer of a documented route (one with a
 * schema, not hidden) whose status its `schema.response` does not declare, so that the API suite fails
 * on an answer the reference does not list. Unknown paths (the 404 handler) are not routes.
 */
export function checkDeclaredStatuses(
  app: FastifyInstance,
  report: (undeclared: UndeclaredStatus) => void,
): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.is404) return;
    const schema = request.routeOptions.schema as { response?: Record<string, unknown>; hide?: boolean };
    if (!schema || schema.hide) return;
    if (declaresStatus(schema.response, reply.statusCode)) return;
    report({
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      status: reply.statusCode,
    });
  });
}

/**
 * A failure to reach the database rather than of the query: no socket (ENOENT/ECONNREFUSED), a connection
 * ended by the server (pg's "Connection terminated"), or PostgreSQL's own "shutting down / starting up /
 * crashed" answers (SQLSTATE class 08 and 57P01–57P03). A query that reached the server and failed is not
 * one of them. (A write whose answer was lost this way may or may not have committed, as with any answer
 * lost on the network.)
 */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error)) return false;
  // Drizzle wraps the driver's error (DrizzleQueryError, `cause`).
  if (depth < 5 && error.cause !== undefined && isDatabaseUnreachable(error.cause, depth + 1)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // A missing file (ENOENT) is the database only when connecting to its socket.
    if (code === 'ENOENT' || code === 'ECONNREFUSED')
      return (error as { syscall?: unknown }).syscall === 'connect';
    if (['ECONNRESET', 'EPIPE', '57P01', '57P02', '57P03'].includes(code)) return true;
    if (/^08/.test(code)) return true;
  }

  return /^Connection terminated|^Client has encountered a connection error|timeout exceeded when trying to connect|terminating connection due to (unexpected postmaster exit|administrator command)/.test(
    error.message,
  );
}

/** The only place that turns a failure into a response: one body shape, and no internals on a 5xx. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[field] ??= issue.message ?? 'Invalid value';
      }
      const first = error.validation[0]?.message ?? 'Invalid request';
      // A path that names no possible record (`/api/shops/not-an-id`) is a missing record, not a bad form.
      if ((error as FastifyError).validationContext === 'params')
        return reply.status(404).send(errorBody('NOT_FOUND', first));
      return reply.status(400).send(errorBody('VALIDATION', first, fields));
    }
    // The client went away before its body had arrived (Node destroys the request with 'aborted'): no
    // one is left to answer, and nothing failed on the server, so it is not logged as its failure.
    if (request.raw.errored === error) {
      request.log.info({ reqId: request.id }, 'the client went away before its request had arrived');
      return reply.status(400).send(errorBody('CLIENT_GONE', 'The request was cut off before it arrived.'));
    }
    // The database cannot be reached (the embedded server being restarted after a crash, a network cut,
    // a failover): nothing was done, so the client may simply try again.
    if (isDatabaseUnreachable(error)) {
      request.log.warn({ err: error }, 'the database cannot be reached');
      reply.header('retry-after', '5');
      return reply
        .status(503)
        .send(
          errorBody('DATABASE_UNAVAILABLE', 'The mall is briefly unavailable. Please try again in a moment.'),
        );
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // The auth screens show the catalogue's catch-all message (spec §8).
      const message: string = request.routeOptions.url?.startsWith('/api/auth/')
        ? AUTH_MESSAGES.other
        : 'Something went wrong. Please try again.';
      return reply.status(500).send(errorBody('INTERNAL', message));
    }
    // Fastify's own 4xx (malformed JSON, body too large, wrong content type): safe to describe.
    const code = typeof error.code === 'string' ? error.code.replace(/^FST_ERR_/, '') : 'BAD_REQUEST';
    return reply.status(status).send(errorBody(code, error.message));
  });
}

export function notFoundBody(method: string, pathname: string): ApiErrorBody {
  return errorBody('NOT_FOUND', `No route for ${method} ${pathname}`);
}

/** Errors Fastify meets before routing (a badly encoded URL…), in the same body as every other. */
export function sendFrameworkError(error: FastifyError, reply: FastifyReply) {
  const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
  const code = typeof error.code === 'string' ? error.code.replace(/^FST_ERR_/, '') : 'BAD_REQUEST';
  return reply.status(status).send(errorBody(code, error.message));
}

/** What a client error from Node's HTTP server becomes: status, code, message; null: say nothing. */
function clientErrorAnswer(errorCode: string | undefined): [number, string, string] | null {
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.'];
  if (errorCode === 'HPE_HEADER_OVERFLOW')
    return [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.'];
  if (errorCode === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return [413, 'CHUNK_EXTENSIONS_TOO_LARGE', 'The request body has too large chunk extensions.'];
  // Anything else the parser refused: not HTTP as we read it.
  if (errorCode?.startsWith('HPE_')) return [400, 'BAD_REQUEST', 'The request is not valid HTTP.'];
  // A socket error (ECONNRESET, EPIPE…): the connection is gone or going, there is no one to answer.
  return null;
}

/**
 * Fastify's clientErrorHandler: what Node's HTTP server meets before a request reaches Fastify (request
 * or headers timeout, headers too large, bytes that are not HTTP, a socket error) is answered with the
 * same body as every other error — a whole HTTP response, then the connection closed — or, when there
 * is nothing to answer on (socket not writable, another response's bytes already sent on it), the socket
 * is destroyed. Called from socket 'error' events and Node's timeout timer: it must never throw.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  try {
    const answer = clientErrorAnswer(error.code);
    if (!answer || socket.destroyed) {
      socket.destroy();
      return;
    }
    if (socket.writableEnded) {
      // Already answered (the parser reports every later chunk again): close once that is sent.
      socket.destroySoon();
      return;
    }
    // A response already under way on this socket: a second one would corrupt it.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, code, message] = answer;
    const body = JSON.stringify(errorBody(code, message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Cache-Control: no-store\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
    // Closed once the answer is handed to the system (or at once when the write fails).
    socket.destroySoon();
  } catch {
    try {
      socket.destroy();
    } catch {
      // Nothing more to do with this socket.
    }
  }
}
