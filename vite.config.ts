import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('./dist/client', import.meta.url));

/**
 * Writes `file.br` and `file.gz` beside every compressible file of the build, for a server that serves
 * precompressed files (@fastify/static's `preCompressed`): compressed once at build time at the
 * highest levels instead of per request. The landing page's 100 KB budget is counted in gzip.
 */
function precompress(): Plugin {
  const compressible = /\.(?:js|mjs|css|html|svg|json|txt)$/;
  function walk(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  }
  return {
    name: 'super-mall:precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!compressible.test(file)) continue;
        const content = readFileSync(file);
        // below ~1 KB the headers outweigh the saving
        if (content.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
      }
    },
  };
}

/**
 * Chunks that import each other evaluate in an order that depends on which loads first: a schema in one
 * read a constant of the other before it was set (every product price "too large"). The groups below
 * must form no cycle; the build fails naming it.
 */
function assertNoChunkCycle(
  chunks: { fileName: string; imports: string[] }[],
  byFile: Map<string, { imports: string[] }>,
): void {
  const done = new Set<string>();
  const visit = (file: string, path: string[]) => {
    if (path.includes(file)) throw new Error(`chunk import cycle: ${[...path, file].join(' -> ')}`);
    if (done.has(file)) return;
    for (const next of byFile.get(file)?.imports ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const chunk of chunks) visit(chunk.fileName, []);
}

/** Which page paths open which area's chunk (see the chunk groups below and router.tsx). */
const AREA_CHUNKS: Record<string, string> = {
  '/admin/': 'admin',
  '/user/': 'user',
  '/login': 'auth',
  // the public directory's pages are the shopper's screens (docs/decisions/034)
  '/shops': 'user',
  '/events': 'user',
  '/register': 'auth',
};

/**
 * Writes `preload.json`: for each area's page paths, the chunks its first screen needs (the area's
 * chunk and what it imports, less the entry's own). The server lists them as `<link rel="modulepreload">`
 * in the page it sends for those paths, so a phone fetches them beside the entry script instead of
 * after it has run: one round trip less before the first screen (docs/decisions/007).
 */
function areaPreloads(): Plugin {
  return {
    name: 'super-mall:area-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const withImports = (files: string[], seen = new Set<string>()): Set<string> => {
        for (const file of files) {
          if (seen.has(file)) continue;
          seen.add(file);
          withImports(byFile.get(file)?.imports ?? [], seen);
        }
        return seen;
      };
      assertNoChunkCycle(chunks, byFile);
      const initial = withImports(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const preloads: Record<string, string[]> = {};
      for (const [prefix, name] of Object.entries(AREA_CHUNKS)) {
        const area = chunks.find((chunk) => chunk.name === name && !chunk.isEntry);
        if (!area) throw new Error(`area-preloads: no chunk named ${name}`);
        preloads[prefix] = [...withImports([area.fileName])]
          .filter((file) => !initial.has(file))
          .map((file) => `/${file}`);
      }
      this.emitFile({ type: 'asset', fileName: 'preload.json', source: JSON.stringify(preloads, null, 2) });
    },
  };
}

export default defineConfig({
  // resolved from this file, so the build works from any working directory
  root: fileURLToPath(new URL('./src/client', import.meta.url)),
  plugins: [react(), tailwindcss(), areaPreloads(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    rolldownOptions: {
      // A feature's index.ts only re-exports: imports through it go straight to the module that holds
      // the export, so a screen loads the chunks of what it uses, not of all the feature exports.
      treeshake: {
        moduleSideEffects: (id) => !/src[\\/]client[\\/]features[\\/][^\\/]+[\\/](index|forms)\.ts$/.test(id),
      },
      output: {
        // a few chunks per area instead of one per screen and per shared component: on a phone
        // each request costs a round trip, and HTTP/1.1 runs only six at a time.
        codeSplitting: {
          // each group takes only the modules it names, not their imports as well, which would
          // put shared components in whichever area's chunk came first (and load it with the other)
          includeDependenciesRecursively: false,
          groups: [
            // claimed first, so that no group below takes a module the landing page loads (which
            // would then load that group's whole chunk with the landing page)
            { name: 'app', tags: ['$initial'], priority: 100 },
            { name: 'react-query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 90 },
            { name: 'toast', test: /node_modules[\\/]sonner[\\/]/, priority: 90 },
            // zod, the form schemas and what reads them: only the screens with a form load them
            {
              name: 'forms',
              test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]|src[\\/]shared[\\/](account|amenity|audit|auth|event|floor-plan|hours|mall-profile|managers|offer|place|product|settings|shop|text|transfer|zod-config|insights|search)\.ts$|src[\\/]client[\\/](lib[\\/]schema-fields|features[\\/]places[\\/]store-types)\.ts$/,
              priority: 80,
            },
            // the floor-plan viewer (docs/decisions/021): loaded when a plan is first shown
            {
              name: 'floor-plan',
              test: /src[\\/]client[\\/]features[\\/]floor-plans[\\/](floor-plan|plan-viewer)\.tsx$/,
              priority: 75,
            },
            {
              name: 'auth',
              // and a shop manager's invitation link, which visitors open
              test: /src[\\/]client[\\/](routes[\\/]((login|register)-page|manage[\\/]invite-page)|components[\\/]auth-)/,
              priority: 70,
            },
            // a person's own account page, opened from either area
            {
              name: 'account',
              test: /src[\\/]client[\\/](routes[\\/]account-page|components[\\/]account-layout)/,
              priority: 70,
            },
            {
              name: 'admin-forms',
              test: /src[\\/]client[\\/](routes[\\/](admin|manage)[\\/](.*-form-page|shop-edit-page|categories-page|floor-plan-page|mall-profile-page)|components[\\/]entity-form|features[\\/][^\\/]+[\\/](forms\.ts|.*-(form|editor)\.tsx)$)/,
              priority: 70,
            },
            {
              name: 'admin',
              // with a shop manager's screens, which are made of the admin area's lists and forms
              test: /src[\\/]client[\\/](routes[\\/](admin|manage[\\/])|components[\\/]admin-|features[\\/](invites[\\/]|managers[\\/]|shops[\\/]shop-filter|offers[\\/]offer-status-badge))/,
              priority: 60,
            },
            // the shopper's screens, and the features' pieces only they show (cards, a shop's header)
            {
              name: 'user',
              test: /src[\\/]client[\\/](routes[\\/]user|components[\\/](user|public)-layout|features[\\/](compare[\\/]|(shops|offers|products|events)[\\/][^\\/]+-(card|header|badges|links)\.tsx$))/,
              priority: 60,
            },
            // what both areas read: each feature's queries and writes, the query client
            {
              name: 'data',
              test: /src[\\/]client[\\/](features[\\/][^\\/]+[\\/]api\.ts$|lib[\\/](query-client|query-keys|list-query|record-writes|refresh-queries|directory-area)|components[\\/]query-boundary)/,
              priority: 55,
            },
            // what every lazy screen uses: components, icons, helpers
            {
              name: 'ui',
              test: /src[\\/](client|shared)[\\/]|node_modules[\\/]lucide-react[\\/]/,
              priority: 50,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
    },
  },
});
