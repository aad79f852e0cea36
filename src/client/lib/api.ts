import { type ApiErrorBody, AUTH_MESSAGES } from '../../shared/errors';

export const GENERIC_ERROR_MESSAGE = 'Something went wrong. Please try again.';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;

  constructor(
    message: string,
    options: { status: number; code: string; fields?: Record<string, string>; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.fields = options.fields;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** A body sent as it is (an import's CSV file), with its content type, instead of JSON. */
  raw?: { type: string; data: Blob };
  signal?: AbortSignal;
}

/**
 * How requests reach the API: the browser's fetch, or, on the server rendering a public page, the app
 * itself in-process (src/client/server-render.tsx, docs/decisions/034).
 */
let transport: typeof fetch = (input, init) => fetch(input, init);
export function setApiTransport(next: typeof fetch): void {
  transport = next;
}

type Listener = () => void;
const unauthenticatedListeners = new Set<Listener>();

/**
 * Called when a data request answers 401: the session expired or was revoked elsewhere.
 * Returns the unsubscribe function.
 */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => {
    unauthenticatedListeners.delete(listener);
  };
}

function isAuthPath(path: string): boolean {
  return path.startsWith('/api/auth/');
}

/** Calls the JSON API. `path` is the full path, e.g. `/api/stats`. Any failure becomes an ApiError. */
export async function api<T>(
  path: string,
  { method = 'GET', body, raw, signal }: ApiOptions = {},
): Promise<T> {
  const fallback = isAuthPath(path) ? AUTH_MESSAGES.other : GENERIC_ERROR_MESSAGE;
  const headers: Record<string, string> = { accept: 'application/json' };
  // Fastify refuses an empty body sent as application/json, so only say JSON when there is one.
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (raw) headers['content-type'] = raw.type;

  let response: Response;
  try {
    response = await transport(path, {
      method,
      headers,
      body: raw ? raw.data : body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (cause) {
    // react-query cancels queries through the signal; it must see its own abort, not an ApiError.
    if (signal?.aborted) throw cause;
    throw new ApiError(fallback, { status: 0, code: 'NETWORK', cause });
  }

  if (!response.ok) {
    const error = await readError(response, fallback);
    if (response.status === 401 && !isAuthPath(path)) {
      for (const listener of unauthenticatedListeners) listener();
    }
    throw error;
  }
  if (response.status === 204) return undefined as T;
  try {
    return (await response.json()) as T;
  } catch (cause) {
    throw new ApiError(fallback, { status: response.status, code: 'BAD_RESPONSE', cause });
  }
}

async function readError(response: Response, fallback: string): Promise<ApiError> {
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  const body = isErrorBody(parsed) ? parsed.error : undefined;
  return new ApiError(body?.message || fallback, {
    status: response.status,
    code: body?.code ?? 'HTTP_ERROR',
    fields: body?.fields,
  });
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const { error } = value;
  return (
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string' &&
    'code' in error &&
    typeof error.code === 'string'
  );
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : GENERIC_ERROR_MESSAGE;
}

/** True when a detail read failed because the record does not exist (404, or an id that is no id). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
