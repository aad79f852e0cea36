import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The host part of an Origin header ("https://mall.example:8443" → "mall.example:8443"), or null. */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * Refuses a write that a browser says comes from another site (CSRF), sign-in included. Browsers send
 * Sec-Fetch-Site and Origin on such requests; clients that send neither (curl, tests, server-to-server)
 * carry no ambient cookie risk from a browser and pass.
 */
export function isCrossSiteWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  return origin === 'null' || originHost(origin) !== request.host;
}

/** Only JSON bodies, and no writes from other sites. */
export function registerRequestGuards(app: FastifyInstance): void {
  // Fastify parses text/plain by default; a write with any body but JSON is answered 415.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/') && isCrossSiteWrite(request)) {
      throw new HttpError(403, 'CROSS_SITE', 'This request came from another site and was refused');
    }
  });
}
