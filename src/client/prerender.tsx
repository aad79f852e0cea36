// The build's server-side entry (vite build --ssr, then scripts/prerender.mjs): HTML for the first paint,
// before any script has run (docs/decisions/025). Never shipped to browsers.
import type { ReactNode } from 'react';
// biome-ignore lint/style/noRestrictedImports: React's HTML renderer, not our src/server; build-time only
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppRoot } from './app-root';
import { FullPageSpinner } from './components/spinner';

function LandingRouter({ children }: { children: ReactNode }) {
  return <StaticRouter location="/">{children}</StaticRouter>;
}

/**
 * The landing page as the browser's first render draws it: signed out as far as it knows (the session
 * is asked for after), the mall's hours not yet read (a neutral placeholder: the hours of the day the
 * build ran would be wrong tomorrow).
 */
export function renderLanding(): string {
  return renderToString(<AppRoot router={LandingRouter} />);
}

/** Every other page's frame and spinner: what the app shows while a screen's code arrives. */
export function renderShell(): string {
  return renderToString(
    <StaticRouter location="/">
      <FullPageSpinner />
    </StaticRouter>,
  );
}
