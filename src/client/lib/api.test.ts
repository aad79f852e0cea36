import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, onUnauthenticated } from './api';

function respond(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function stubFetch(impl: () => Promise<Response>) {
  const fetchMock = vi.fn<typeof fetch>(impl);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api', () => {
  it('sends JSON with same-origin credentials and returns the parsed body', async () => {
    const fetchMock = stubFetch(async () => respond(200, { ok: 1 }));
    await expect(api('/api/thing', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: 1 });
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/api/thing');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"a":1}');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
  });

  it('sends no content type without a body and returns undefined for 204', async () => {
    const fetchMock = stubFetch(async () => respond(204));
    await expect(api('/api/auth/logout', { method: 'POST' })).resolves.toBeUndefined();
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has('content-type')).toBe(false);
  });

  it('turns the error body into an ApiError', async () => {
    stubFetch(async () =>
      respond(400, {
        error: {
          code: 'VALIDATION',
          message: 'Invalid email address',
          fields: { email: 'Invalid email address' },
        },
      }),
    );
    const error = await api('/api/auth/login').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      message: 'Invalid email address',
      fields: { email: 'Invalid email address' },
    });
  });

  it('uses the fallback message when the error body is not ours', async () => {
    stubFetch(async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api('/api/stats')).rejects.toMatchObject({
      status: 502,
      message: 'Something went wrong. Please try again.',
    });
  });

  it('reports network failures by kind of call', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api('/api/auth/login')).rejects.toMatchObject({
      status: 0,
      message: 'Authentication failed',
    });
    await expect(api('/api/stats')).rejects.toMatchObject({
      status: 0,
      message: 'Something went wrong. Please try again.',
    });
  });

  it('tells listeners about a 401 on data calls but not on auth calls', async () => {
    stubFetch(async () => respond(401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in first' } }));
    const listener = vi.fn();
    const unsubscribe = onUnauthenticated(listener);
    await expect(api('/api/stats')).rejects.toBeInstanceOf(ApiError);
    await expect(api('/api/auth/login')).rejects.toBeInstanceOf(ApiError);
    unsubscribe();
    await expect(api('/api/stats')).rejects.toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
