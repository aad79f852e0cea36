// Loads the public pages' renderer (src/client/server-render.tsx, docs/decisions/034) and connects it to
// this app: its API reads go to the app in-process (app.inject, as a visitor with no cookie reads them:
// a page can show nothing a visitor's own request would not get). Each render has its own query client,
// which the renderer names itself (no AsyncLocalStorage: on Node 20 one slows every request of the
// process once it has been used, docs/decisions/044).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What the renderer module exports (src/client/server-render.tsx), as far as the server uses it. */
export interface RenderedPage {
  html: string;
  hints: string;
  state: unknown;
  validUntil: number;
  failed: boolean;
  data(key: readonly unknown[]): unknown;
}
interface RendererModule {
  installRenderer(io: { fetch: typeof fetch }): void;
  renderPage(url: string): Promise<RenderedPage>;
}

/**
 * Marks the renderer's own in-process reads: they are not a client's requests (no rate limit counts
 * them; the page's request was counted). A random value per process, so no client can send it.
 */
const RENDER_MARK = randomBytes(18).toString('base64url');
export const isRenderRead = (request: FastifyRequest): boolean =>
  request.headers['x-mall-render'] === RENDER_MARK;

const here = path.dirname(fileURLToPath(import.meta.url));

/** Renderers loaded in this process so far: each app gets an instance of its own (below). */
let instances = 0;

/**
 * The built renderer beside the server bundle, else one built now from the sources (tests, `npm run dev`).
 * A new instance of the module for each app: the module keeps the app it reads from (installRenderer), and
 * two apps in one process (the tests, two servers in one) sharing it had every page of one read from the
 * other — from a closed one, every read failed.
 */
/** The renderer built beside the server bundle (`npm run build`), if this is the bundle. */
function builtRenderer(): string | null {
  const built = path.join(here, 'render.js');
  return here.endsWith(`${path.sep}dist${path.sep}server`) && fs.existsSync(built) ? built : null;
}

async function loadModule(): Promise<RendererModule> {
  // React's production build on the server (its development build renders some 30% slower), unless the
  // process says otherwise (the tests).
  process.env.NODE_ENV ??= 'production';
  instances += 1;
  const instance = `?instance=${instances}`;
  const built = builtRenderer();
  if (built) return import(`${pathToFileURL(built).href}${instance}`);
  const repoRoot = path.resolve(here, '..', '..', '..');
  const script = path.join(repoRoot, 'scripts', 'build-renderer.mjs');
  const { buildRenderer } = (await import(pathToFileURL(script).href)) as {
    buildRenderer(outfile: string): Promise<string>;
  };
  const outfile = path.join(
    repoRoot,
    '.tmp',
    `render-${process.pid}-${RENDER_MARK.slice(0, 6)}-${instances}.mjs`,
  );
  await buildRenderer(outfile);
  try {
    return await import(`${pathToFileURL(outfile).href}${instance}`);
  } finally {
    // loaded: the file has done its part (each process builds its own)
    fs.rmSync(outfile, { force: true });
  }
}

export type RenderPage = ((url: string) => Promise<RenderedPage>) & {
  /** Loads the renderer now (after the server listens), so the first visitor does not wait for it. */
  warm(): void;
};

/** The renderer for `app`, loaded at its first use (the server starts without it). */
export function pageRenderer(app: FastifyInstance): RenderPage {
  let loading: Promise<RendererModule> | undefined;
  const load = () => {
    loading ??= loadModule().then((module) => {
      module.installRenderer({
        fetch: async (input, init) => {
          const answer = await app.inject({
            method: (init?.method ?? 'GET') as 'GET',
            url: String(input),
            headers: { accept: 'application/json', 'x-mall-render': RENDER_MARK },
          });
          return new Response(answer.statusCode === 204 ? null : answer.rawPayload, {
            status: answer.statusCode,
            headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
          });
        },
      });
      return module;
    });
    return loading;
  };
  const renderPage = async (url: string) => (await load()).renderPage(url);
  return Object.assign(renderPage, {
    warm: () => {
      // From the sources (tests, `npm run dev`) it is built at the first page instead: a build at start-up
      // held a quick start-then-stop up for seconds.
      if (!builtRenderer()) return;
      load().catch((error: unknown) =>
        app.log.warn({ err: error }, 'public pages: the renderer did not load'),
      );
    },
  });
}
