import { LoaderCircle } from 'lucide-react';

/** Centered spinner shown while the session or a screen's code is loading. */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-slate-50">
      <div role="status" aria-label="Loading" className="text-indigo-600">
        <LoaderCircle aria-hidden="true" className="size-10 animate-spin" />
      </div>
    </div>
  );
}
