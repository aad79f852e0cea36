import { Outlet } from 'react-router';
import { MAIN_ID } from '../lib/page-title';
import { LogoLink } from './logo-link';

/** Top bar and centered card area of /login and /register. */
export function AuthLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-br from-indigo-50 via-white to-violet-50">
      <header className="border-b border-slate-200/70 bg-white/80 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <LogoLink />
        </div>
      </header>
      <main
        id={MAIN_ID}
        tabIndex={-1}
        className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16"
      >
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-xl shadow-indigo-100/50 sm:p-8">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
