import { ArrowLeft, House, type LucideIcon } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { MAIN_ID, usePageTitle } from '../lib/page-title';
import { Button, buttonClass } from './ui/button';
import { IconTile } from './ui/icon-tile';

interface StatusPageProps {
  icon: LucideIcon;
  title: string;
  message: string;
}

/** The 403 and 404 screens: a title, one sentence, Go Back and Return Home. */
export function StatusPage({ icon: Icon, title, message }: StatusPageProps) {
  usePageTitle(title);
  const navigate = useNavigate();

  function goBack() {
    // a tab opened straight on this page has nothing to go back to.
    if (window.history.length <= 1) navigate('/');
    else navigate(-1);
  }

  return (
    <main
      id={MAIN_ID}
      tabIndex={-1}
      className="flex min-h-dvh items-center justify-center bg-slate-50 px-4 py-12"
    >
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <IconTile icon={Icon} size="xl" className="mx-auto mb-5" />
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-3 text-slate-600">{message}</p>
        <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
          <Button variant="secondary" onClick={goBack}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Go Back
          </Button>
          <Link to="/" className={buttonClass('primary')}>
            <House aria-hidden="true" className="size-4" />
            Return Home
          </Link>
        </div>
      </div>
    </main>
  );
}
