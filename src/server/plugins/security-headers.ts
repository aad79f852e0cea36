// The security headers on every answer (docs/security.md, docs/decisions/010): helmet's CSP,
// X-Frame-Options and the rest (taken from helmet once: docs/decisions/043) on every request the hooks
// see, HSTS on those served over HTTPS, and the same headers on the errors Fastify answers before
// routing, which skip the hooks.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { sendFrameworkError } from '../errors';

type HelmetMiddleware = ReturnType<typeof helmet>;

let helmetMiddleware: HelmetMiddleware | undefined;

/**
 * Helmet's middleware, built on first use and kept (@fastify/helmet rebuilt it, and re-parsed the CSP, on
 * every request): the hook and the framework errors' handler share it.
 */
export function securityHeaderWriter(): HelmetMiddleware {
  helmetMiddleware ??= helmet({
    // Every directive written out (helmet's defaults off), exactly as docs/security.md lists them.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        fontSrc: ["'self'"],
        // The stylesheet the toasts insert at run time, by its hash; no other inline style (below).
        styleSrc: ["'self'", ...toastStyleHashes()],
        // Style attributes in server-rendered pages (a floor plan's pins are placed by them: docs/decisions/034).
        // No stylesheet or <style> element: an attribute styles its own element and reads nothing.
        styleSrcAttr: ["'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    // Set by the plugin below, and only on responses served over HTTPS.
    strictTransportSecurity: false,
    // What frame-ancestors 'none' says, for browsers that read only this header (helmet's default is
    // SAMEORIGIN, which would let a page of the mall frame another: the two must agree).
    xFrameOptions: { action: 'deny' },
  });
  return helmetMiddleware;
}

/**
 * Fastify's `frameworkErrors` option: the errors it meets before routing (a badly encoded URL…) get the
 * same body as every other (errors.ts), and the security headers too: these answers skip the hooks (a
 * 400 BAD_URL, a 414 id too long).
 */
export const answerFrameworkError: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error,
  _request,
  reply,
) => {
  reply.headers(securityHeaders());
  sendFrameworkError(error, reply as unknown as FastifyReply);
};

let headersTaken: Readonly<Record<string, string>> | undefined;

/**
 * The headers helmet writes with our settings, taken from helmet once: they depend on no request (no
 * nonce, no per-request directive), so every answer gets this same list, set as Fastify's own reply
 * headers. Running helmet's twelve middlewares on each request (each a `setHeader`, which also moves
 * Node onto its slower header path) cost more than the rest of a cached page's hooks together
 * (docs/decisions/043).
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  if (headersTaken) return headersTaken;
  const taken: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      taken[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete taken[name.toLowerCase()];
    },
  };
  let finished = false;
  securityHeaderWriter()({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // helmet's middlewares are synchronous today; if a release ever makes one wait, say so rather than
  // send answers without its headers.
  if (!finished)
    throw new Error('helmet did not finish at once: update src/server/plugins/security-headers.ts');
  headersTaken = Object.freeze(taken);
  return headersTaken;
}

/** Strict-Transport-Security over HTTPS: 180 days, no includeSubDomains (docs/decisions/010). */
export const HSTS = 'max-age=15552000';

/** The security headers on every answer the hooks see; register it before any hook that may answer. */
export const securityHeadersPlugin = fp(
  async (app) => {
    const headers = securityHeaders();
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(headers);
      // HSTS here, not in an onSend hook: an async hook on every answer costs more than this test.
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      done();
    });
  },
  { name: 'security-headers' },
);

/**
 * The one `<style>` element the app inserts at run time: sonner (the toasts) injects its stylesheet when
 * it loads. Allowing exactly that text by its hash keeps `style-src` free of 'unsafe-inline', so an
 * injected `<style>` (CSS-based exfiltration, fake overlays) is refused. Read from the installed package,
 * the same file the client bundle was built from; the e2e suite fails on any CSP violation, so a sonner
 * release that changes how it inserts its styles is noticed.
 */
export function toastStyleHashes(): string[] {
  const require = createRequire(import.meta.url);
  const source = fs.readFileSync(require.resolve('sonner'), 'utf8');
  const call = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(source);
  if (!call?.[1])
    throw new Error(
      'sonner no longer inserts its stylesheet with __insertCSS: update src/server/plugins/security-headers.ts',
    );
  const css = JSON.parse(call[1]) as string;
  // sonner appends the <style> element empty, then its text: the browser checks both states.
  return [hashSource(''), hashSource(css)];
}

const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
