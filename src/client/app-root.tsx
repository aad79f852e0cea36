import { type ReactNode, StrictMode, useEffect } from 'react';
import { DeferredToaster } from './components/deferred-toaster';
import { hydrationDone } from './lib/hydration';
import { App } from './router';

/**
 * The whole tree inside a router: the browser's (main.tsx) or a fixed location's (prerender.tsx). One
 * tree for both, so the pre-rendered landing page is exactly what the browser's first render hydrates.
 */
export function AppRoot({ router: Router }: { router: (props: { children: ReactNode }) => ReactNode }) {
  // The root's effect runs after every other one of the first commit: a hydration is over by then.
  useEffect(hydrationDone, []);
  return (
    <StrictMode>
      <Router>
        <App />
      </Router>
      {/* react-query's provider sits on the signed-in areas' route (components/query-boundary.tsx) and
          the Toaster loads after the first paint, keeping both out of the landing page's JavaScript. */}
      <DeferredToaster />
    </StrictMode>
  );
}
