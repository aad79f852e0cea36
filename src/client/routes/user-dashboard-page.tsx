import { ArrowRight, Percent, Store } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../components/ui/button';

export function UserDashboardPage() {
  return (
    <section className="overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 to-violet-600 px-6 py-10 text-white shadow-lg sm:px-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Welcome to Super Mall</h1>
      <p className="mt-3 max-w-2xl text-indigo-100 sm:text-lg">
        Explore the shops of the mall, catch today's offers and compare products before you buy.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Link to="/user/shops" className={buttonClass('inverse', 'lg')}>
          <Store aria-hidden="true" className="size-5" />
          Browse shops
        </Link>
        <Link
          to="/user/offers"
          className={buttonClass(
            'ghost',
            'lg',
            'text-white ring-1 ring-white/40 hover:bg-white/10 hover:text-white focus-visible:outline-white',
          )}
        >
          <Percent aria-hidden="true" className="size-5" />
          View all offers
          <ArrowRight aria-hidden="true" className="size-5" />
        </Link>
      </div>
    </section>
  );
}
