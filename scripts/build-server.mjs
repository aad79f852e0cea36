// Bundles the server into dist/server with esbuild. Packages stay external (sharp and the PostgreSQL
// binaries load files from beside their own); the migrations are copied beside the bundle.
import fs from 'node:fs';
import { build } from 'esbuild';
import { buildRenderer } from './build-renderer.mjs';

const outdir = 'dist/server';
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    'import-check': 'src/server/modules/transfer/check-child.ts',
    'image-worker': 'src/server/modules/images/image-worker.ts',
  },
  outdir,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  // main.js stays small: it sets up the process, then loads the rest (a separate chunk).
  splitting: true,
  chunkNames: '[name]-[hash]',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
});
// The public pages' renderer (docs/decisions/034): loaded by the server at its first public page.
await buildRenderer(`${outdir}/render.js`);
fs.cpSync('src/server/db/migrations', `${outdir}/migrations`, { recursive: true });
console.log(`built ${outdir}`);
