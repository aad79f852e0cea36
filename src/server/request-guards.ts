import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { HttpError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** An Origin header's scheme, host and port ("https://mall.example:8443"), or null when it is not a URL. */
function originOf(origin: string): string | null {
  try {
    return new URL(origin).origin;
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
  // Scheme included: a page on https://host is another origin than this server on http://host.
  const own = originOf(`${request.protocol}://${request.host}`);
  return origin === 'null' || own === null || originOf(origin) !== own;
}

export const FORBIDDEN_KEY = 'Keys named __proto__ or constructor.prototype are not allowed';
const EMPTY_BODY = "Body cannot be empty when content-type is set to 'application/json'";

/** Only JSON bodies, and no writes from other sites. */
export function registerRequestGuards(app: FastifyInstance): void {
  // Fastify parses text/plain by default; a write with any body but JSON is answered 415.
  app.removeContentTypeParser('text/plain');
  // Fastify's own JSON parser answers a `__proto__` key like broken JSON; say what is wrong instead.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.length === 0) return done(new HttpError(400, 'EMPTY_JSON_BODY', EMPTY_BODY), undefined);
    try {
      done(null, secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const forbidden = error instanceof SyntaxError && /forbidden prototype/.test(error.message);
      done(
        forbidden
          ? new HttpError(400, 'FORBIDDEN_KEY', FORBIDDEN_KEY)
          : new HttpError(400, 'INVALID_JSON_BODY', 'Body is not valid JSON'),
        undefined,
      );
    }
  });
  // Every write, whatever its path and however it is spelt: no page route takes a write either.
  // A callback, not an async hook: the test is synchronous (docs/decisions/043).
  app.addHook('onRequest', (request, _reply, done) => {
    if (isCrossSiteWrite(request))
      return done(new HttpError(403, 'CROSS_SITE', 'This request came from another site and was refused'));
    done();
  });
}
