// Pre-renders the first paint into the built client (docs/decisions/025), after `vite build`:
//  - dist/client/landing.html: index.html with the landing page rendered inside #root (hydrated by
//    main.tsx), the mall's hours left as a neutral placeholder (read by the browser, never baked in);
//  - dist/client/index.html: with the page frame and spinner inside #root (every other page; main.tsx
//    draws over it with the same picture).
// No script is added to the page: the CSP allows none inline. The server sends the right one per path.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleClientForNode } from './build-renderer.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(repoRoot, 'dist', 'client');
const outfile = path.join(repoRoot, '.tmp', 'prerender', 'prerender.mjs');

await bundleClientForNode(path.join(repoRoot, 'src', 'client', 'prerender.tsx'), outfile);
process.env.NODE_ENV = 'production';
const { renderLanding, renderShell } = await import(pathToFileURL(outfile).href);

const indexFile = path.join(clientDir, 'index.html');
const template = fs.readFileSync(indexFile, 'utf8');
const EMPTY_ROOT = '<div id="root"></div>';
// The public directory's pages are rendered by the server into the page as Vite wrote it (its scripts,
// styles and empty #root: src/server/plugins/public-pages.ts, docs/decisions/034).
fs.writeFileSync(path.join(clientDir, 'template.html'), template);
if (!template.includes(EMPTY_ROOT)) throw new Error(`prerender: ${indexFile} has no empty ${EMPTY_ROOT}`);
const withRoot = (attributes, rendered) => {
  if (/<script/i.test(rendered)) throw new Error('prerender: the markup holds a script');
  // React puts the resource hints it finds (the logo's preload) first in its output; they belong in
  // <head>, and #root must hold exactly what the browser's first render makes, or hydration fails.
  const hints = /^(?:<link [^>]*\/>)*/.exec(rendered)?.[0] ?? '';
  const html = rendered.slice(hints.length);
  return template
    .replace('</head>', `${hints}</head>`)
    .replace(EMPTY_ROOT, `<div id="root"${attributes}>${html}</div>`);
};

fs.writeFileSync(
  path.join(clientDir, 'landing.html'),
  withRoot(' data-prerendered="landing"', renderLanding()),
);
fs.writeFileSync(indexFile, withRoot(' data-prerendered="shell"', renderShell()));
// the build's precompressed copies of index.html are out of date now; the server compresses pages itself
for (const suffix of ['.gz', '.br']) fs.rmSync(`${indexFile}${suffix}`, { force: true });
console.log('pre-rendered dist/client/landing.html and the page frame in dist/client/index.html');
