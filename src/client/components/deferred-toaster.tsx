import { lazy, Suspense, useEffect, useState } from 'react';

const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

/**
 * sonner's Toaster, loaded once the browser is idle after the first paint: no screen raises a toast
 * before it is interactive, and a toast raised earlier still shows (sonner replays it on mount).
 */
export function DeferredToaster() {
  const [show, setShow] = useState(false);

  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setShow(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setShow(true), 200);
    return () => window.clearTimeout(id);
  }, []);

  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <Toaster richColors position="top-center" closeButton />
    </Suspense>
  );
}
