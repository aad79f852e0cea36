import { ArrowRight, BadgePercent, type LucideIcon, Scale, Sparkles, Store } from 'lucide-react';
import { type MouseEvent, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { dashboardPath } from '../../shared/roles';
import { LogoLink } from '../components/logo-link';
import { buttonClass } from '../components/ui/button';
import { LandingEvents } from '../features/events';
import { LandingMallHours } from '../features/hours';
import { useAuth } from '../lib/auth';
import { cn } from '../lib/cn';
import { APP_NAME, MAIN_ID, usePageTitle } from '../lib/page-title';

const features: Array<{ title: string; text: string; icon: LucideIcon }> = [
  {
    title: 'Multiple Shops',
    text: 'Discover every shop in the mall in one place, by category and by floor.',
    icon: Store,
  },
  {
    title: 'Best Offers',
    text: 'Never miss a deal: see every offer that is running right now, and how long it lasts.',
    icon: BadgePercent,
  },
  {
    title: 'Compare Products',
    text: 'Put products from different shops side by side and pick the best price.',
    icon: Scale,
  },
  {
    title: 'Personalized Experience',
    text: 'Your own dashboard with featured offers and the categories you love.',
    icon: Sparkles,
  },
];

export function LandingPage() {
  usePageTitle(APP_NAME);
  const { user, ready } = useAuth();
  const startPath = user ? dashboardPath(user.role) : '/login';
  // The page is drawn before the session is known (pre-rendered, docs/decisions/025): a Get Started
  // clicked that early goes where it should once the session is known, not to sign-in.
  const navigate = useNavigate();
  const [startWanted, setStartWanted] = useState(false);
  useEffect(() => {
    if (startWanted && ready) navigate(startPath);
  }, [startWanted, ready, startPath, navigate]);
  const startOnceKnown = (event: MouseEvent) => {
    if (ready) return;
    event.preventDefault();
    setStartWanted(true);
  };

  return (
    <div className="min-h-dvh bg-white text-slate-900">
      <header className="absolute inset-x-0 top-0 z-10">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
          <LogoLink />
          {/* why: hidden until the session is known, so it never reads Sign in to someone signed in */}
          <Link
            to={startPath}
            className={cn(
              'rounded-lg px-3 py-2 text-sm font-semibold text-slate-700 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600',
              !ready && 'invisible',
            )}
          >
            {user ? 'My dashboard' : 'Sign in'}
          </Link>
        </div>
      </header>

      <main id={MAIN_ID} tabIndex={-1}>
        <section className="relative overflow-hidden bg-gradient-to-br from-indigo-50 via-white to-violet-100 pt-32 pb-20 sm:pt-40 sm:pb-28">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-violet-300/30 blur-3xl"
          />
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -bottom-32 -left-24 size-96 rounded-full bg-indigo-300/30 blur-3xl"
          />
          <div className="relative mx-auto max-w-4xl px-4 text-center sm:px-6">
            <p className="inline-flex items-center gap-2 rounded-full bg-white/80 px-4 py-1.5 text-sm font-medium text-indigo-700 shadow-sm ring-1 ring-indigo-100">
              <Sparkles aria-hidden="true" className="size-4" />
              Shops, offers and comparisons in one place
            </p>
            <h1 className="mt-6 bg-gradient-to-r from-indigo-600 to-violet-600 bg-clip-text text-5xl font-extrabold tracking-tight text-transparent sm:text-7xl">
              Super Mall
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 sm:text-xl">
              Find your favourite shops, catch the best offers and compare products before you buy, all under
              one roof.
            </p>
            {/* Room for the hours before they are read: two lines on a phone, where the line wraps
                (one line reserved there moved the page by 0.011 when they came: Lighthouse's CLS). */}
            <div className="mt-6 min-h-12 sm:min-h-6">
              <LandingMallHours />
            </div>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <Link
                to={startPath}
                onClick={startOnceKnown}
                className={buttonClass('primary', 'lg', 'shadow-lg shadow-indigo-500/30')}
              >
                Get Started
                <ArrowRight aria-hidden="true" className="size-5" />
              </Link>
              {/* the public directory (docs/decisions/034): every shop, its hours and offers, no account */}
              <Link to="/shops" className={buttonClass('secondary', 'lg')}>
                <Store aria-hidden="true" className="size-5" />
                Browse the shops
              </Link>
            </div>
          </div>
        </section>

        <section aria-labelledby="features-heading" className="py-20 sm:py-24">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="mx-auto max-w-2xl text-center">
              <h2 id="features-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
                Everything you need for a great visit
              </h2>
              <p className="mt-4 text-slate-600">Plan your trip to the mall before you leave home.</p>
            </div>
            <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {features.map(({ title, text, icon: Icon }) => (
                <li
                  key={title}
                  className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
                >
                  <div className="flex size-12 items-center justify-center rounded-xl bg-gradient-to-br from-indigo-500 to-violet-500 text-white">
                    <Icon aria-hidden="true" className="size-6" />
                  </div>
                  <h3 className="mt-5 text-lg font-semibold">{title}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <LandingEvents />

        <section aria-labelledby="cta-heading" className="px-4 pb-20 sm:px-6 sm:pb-24">
          <div className="mx-auto max-w-5xl rounded-3xl bg-gradient-to-br from-indigo-600 to-violet-700 px-6 py-14 text-center text-white shadow-xl sm:px-12">
            <h2 id="cta-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
              Join thousands of happy customers
            </h2>
            <p className="mx-auto mt-4 max-w-xl text-indigo-100">
              Create your free account and start exploring the mall today.
            </p>
            <div className="mt-8 flex justify-center">
              <Link to="/register" className={buttonClass('inverse', 'lg')}>
                Join Now
              </Link>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-200 py-8 text-center text-sm text-slate-500">
        © {new Date().getFullYear()} Super Mall ·{' '}
        <a href="/privacy" className="underline underline-offset-4 hover:text-slate-900">
          Privacy
        </a>
      </footer>
    </div>
  );
}
