import './styles.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoot } from './app-root';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = <AppRoot router={BrowserRouter} />;
// The landing page arrives rendered (scripts/prerender.mjs, docs/decisions/025): hydrated, not redrawn.
// Every other page arrives with the frame and spinner the app's first render shows too, so drawing
// over it changes nothing on screen.
if (root.dataset.prerendered === 'landing' && window.location.pathname === '/') hydrateRoot(root, app);
else createRoot(root).render(app);
