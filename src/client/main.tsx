import './styles.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoot } from './app-root';
import { readSessionAtStart } from './lib/auth';
import { preloadMatches } from './lib/lazy-route';
import { routes } from './router';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = <AppRoot router={BrowserRouter} />;
// The landing page arrives rendered (scripts/prerender.mjs, docs/decisions/025): hydrated, not redrawn.
// Every other page arrives with the frame and spinner the app's first render shows too, so drawing
// over it changes nothing on screen.
if (root.dataset.prerendered === 'landing' && window.location.pathname === '/') hydrateRoot(root, app);
else {
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
