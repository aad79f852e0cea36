import { LoaderCircle } from 'lucide-react';
import { LogoLink } from './logo-link';

/**
 * The page's frame (a top bar with the logo) and a spinner, shown while the session or a screen's code is
 * loading. The build pre-renders it into every page but the landing page (scripts/prerender.mjs), so a
 * slow link shows it at first paint, and the app's first render is the same picture (docs/decisions/025).
 */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <LogoLink />
        </div>
      </header>
      <div className="flex flex-1 items-center justify-center">
        <div role="status" aria-label="Loading" className="text-indigo-600">
          <LoaderCircle aria-hidden="true" className="size-10 animate-spin" />
        </div>
      </div>
    </div>
  );
}
