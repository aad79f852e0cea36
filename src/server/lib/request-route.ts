import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The per-address limit this route counts against (rate-limits.ts); 'api' when unset. */
    rateLimitGroup?: 'sign-in' | 'register';
    /** Answered without a session lookup, a rate limit or the database-queue check (the health check). */
    probe?: boolean;
  }
}

/**
 * Guards decide on the route the router matched — its pattern and its config — never on the raw URL
 * text: the router decodes `/%61pi/auth/%6cogin` to `/api/auth/login`, accepts `?…`, `#…` and an
 * absolute `http://host/…` request target, and a guard that read the text would see another path.
 */
export function matchedRoute(request: FastifyRequest): string | undefined {
  return request.routeOptions.url;
}

/**
 * The path as the router reads it, for requests that matched no route: request target without scheme
 * and host, query or fragment, percent-decoded ('' when it does not decode).
 */
export function decodedPath(request: FastifyRequest): string {
  let target = request.url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(target);
  if (scheme) target = target.slice(scheme[0].length) || '/';
  const end = target.search(/[?#]/);
  const raw = end === -1 ? target : target.slice(0, end);
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

/** An API request: one the router matched to an /api route, or an unmatched one whose path is under /api. */
export function isApiRequest(request: FastifyRequest): boolean {
  const route = matchedRoute(request);
  const path = route ?? decodedPath(request);
  return path === '/api' || path.startsWith('/api/');
}

/** The health check load balancers poll (route config `probe`). */
export function isProbe(request: FastifyRequest): boolean {
  return request.routeOptions.config?.probe === true;
}
