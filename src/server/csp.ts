import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';

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
    throw new Error('sonner no longer inserts its stylesheet with __insertCSS: update src/server/csp.ts');
  const css = JSON.parse(call[1]) as string;
  // sonner appends the <style> element empty, then its text: the browser checks both states.
  return [hashSource(''), hashSource(css)];
}

const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
