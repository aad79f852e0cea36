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
export const forbidden = () => new HttpError(403, 'FORBIDDEN', 'You do not have permission to do this');

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
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // The auth screens show the catalogue's catch-all message (spec §8).
      const message: string = request.url.startsWith('/api/auth/')
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
