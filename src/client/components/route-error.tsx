import { RefreshCw } from 'lucide-react';
import { GENERIC_ERROR_MESSAGE } from '../lib/api';
import { MAIN_ID } from '../lib/page-title';
import { Button } from './ui/button';

/** Shown when a screen fails to render or its code cannot be loaded (e.g. after a redeploy). */
export function RouteError() {
  return (
    <main id={MAIN_ID} tabIndex={-1} className="flex min-h-dvh items-center justify-center bg-slate-50 px-4">
      <div role="alert" className="max-w-md text-center">
        <p className="text-lg font-semibold text-slate-900">{GENERIC_ERROR_MESSAGE}</p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Reload page
        </Button>
      </div>
    </main>
  );
}
