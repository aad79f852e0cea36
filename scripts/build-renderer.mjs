// Bundles the public pages' server renderer (src/client/server-render.tsx, docs/decisions/034) into one
// ES module: the client's route tree, screens and queries, with lib/query-client.server.ts in the
// place of lib/query-client.ts (each render has its own query client). Packages stay external: react,
// react-dom and react-router from node_modules, the same copies the browser's bundle is made of.
// Used by scripts/build-server.mjs (dist/server/render.js) and, when that is missing (API tests,
// `npm run dev`), by the server itself (src/server/pages/renderer.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientLib = path.join(repoRoot, 'src', 'client', 'lib');

/**
 * One client module bundled for Node, as the browser's bundle sees the app: packages external (react,
 * react-dom and react-router from node_modules, the same copies the browser's bundle is made of), React
 * in production. Also the landing page's pre-render (scripts/prerender.mjs).
 * @param {string} entry
 * @param {string} outfile
 * @param {import('esbuild').Plugin[]} [plugins]
 */
export async function bundleClientForNode(entry, outfile, plugins = []) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    jsx: 'automatic',
    target: 'node20.19',
    // the lazily loaded screens are bundled in (a render waits for none of them)
    splitting: false,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins,
  });
  return outfile;
}

/** @param {string} outfile */
export function buildRenderer(outfile) {
  return bundleClientForNode(path.join(repoRoot, 'src', 'client', 'server-render.tsx'), outfile, [
    {
      name: 'server-query-client',
      setup(esbuild) {
        esbuild.onResolve({ filter: /(^|\/)query-client$/ }, (args) => {
          const target = path.resolve(args.resolveDir, args.path);
          return target === path.join(clientLib, 'query-client')
            ? { path: path.join(clientLib, 'query-client.server.ts') }
            : undefined;
        });
      },
    },
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outfile = process.argv[2] ?? path.join(repoRoot, 'dist', 'server', 'render.js');
  await buildRenderer(outfile);
  console.log(`built ${path.relative(repoRoot, outfile)}`);
}
