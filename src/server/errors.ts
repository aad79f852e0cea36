import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type ApiErrorBody, AUTH_MESSAGES } from '../shared/errors';

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
