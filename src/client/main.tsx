import './styles.css';
import type { DehydratedState } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { adoptZoneOffsets } from '../shared/hours-status';
import type { PublicSettings } from '../shared/settings';
import { AppRoot } from './app-root';
import { readSessionAtStart } from './lib/auth';
import { startHydrating } from './lib/hydration';
import { preloadMatches } from './lib/lazy-route';
import { routes } from './router';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = <AppRoot router={BrowserRouter} />;
// The landing page arrives rendered (scripts/prerender.mjs, docs/decisions/025): hydrated, not redrawn.
// Every other page arrives with the frame and spinner the app's first render shows too, so drawing
// over it changes nothing on screen.
// Hydrated in a transition: React then hydrates in slices, yielding to the browser between them, rather
// than in one long task (the page is on screen already; a tap meanwhile is replayed once its part is live).
if (root.dataset.prerendered === 'landing' && window.location.pathname === '/') {
  startHydrating();
  startTransition(() => void hydrateRoot(root, app));
} else if (root.dataset.prerendered === 'page') {
  // A public directory page, rendered on the server with its reads (docs/decisions/034): its chunks and
  // those reads first, so the first render draws exactly the page that arrived, then hydrated. Who is
  // signed in is asked for after, as the server did not know.
  void hydratePage(root);
} else {
  // The page's chunks first: rendered before they arrive, each lazy screen would suspend, show the
  // spinner, and React holds a revealed screen back at least 300 ms after a spinner appeared. Until
  // then the page shows the frame and spinner it arrived with (index.html). Who is signed in is read
  // meanwhile (index.html preloads it), so the guards decide and the page's reads start as its chunks
  // arrive, not after the first render.
  const chunks = preloadMatches(routes, window.location);
  void readSessionAtStart()
    .then(({ user }) => preloadMatches(routes, window.location, { ready: true, user }))
    .then(() => chunks)
    // a transition: React renders the page in slices, yielding to the browser between them, rather than
    // in one long task (the screen is the pre-rendered frame until the whole page is ready to show).
    .then(() => startTransition(() => createRoot(root).render(app)));
}

async function hydratePage(container: HTMLElement): Promise<void> {
  const text = document.getElementById('page-state')?.textContent;
  const [{ hydrate }, { queryClient }] = await Promise.all([
    import('@tanstack/react-query'),
    import('./lib/query-client'),
  ]);
  if (text) {
    const state = JSON.parse(text) as DehydratedState;
    // The server sends a kept page only while the directory is as it was drawn (its catalogue version)
    // and its statuses hold: its reads are as current as the page is now, so they count as read now
    // (not stale at once, which would redraw the page as loading before hydrating it). The clock's read
    // keeps its time: the mall clock is its `now` plus the time since (features/hours/use-mall-clock.ts).
    const now = Date.now();
    for (const query of state.queries) {
      if (query.queryKey[0] !== 'settings') query.state.dataUpdatedAt = now;
      // The mall's zone offsets, as a read of the settings adopts them (features/settings/api.ts): without
      // them the first render reads the clock through Intl, whose first time-zone formatter alone was
      // Lighthouse's longest task on /shops.
      else {
        const settings = query.state.data as PublicSettings | undefined;
        if (settings?.offsets) adoptZoneOffsets(settings.timeZone, settings.offsets);
      }
    }
    hydrate(queryClient, state);
  }
  await preloadMatches(routes, window.location, undefined, { chunksOnly: true });
  startHydrating();
  startTransition(() => void hydrateRoot(container, app));
}
