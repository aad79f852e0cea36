import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { DeferredToaster } from './components/deferred-toaster';
import { App } from './router';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// react-query's provider sits on the signed-in areas' route (components/query-boundary.tsx) and
// the Toaster loads after the first paint, keeping both out of the landing page's JavaScript.
createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
    <DeferredToaster />
  </StrictMode>,
);
