import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { SEARCH_MIN_SESSIONS_TEXT } from '../lib/insights';
import { MAIN_ID, usePageTitle } from '../lib/page-title';

/** /privacy: what the mall counts about visits, and what it never keeps (docs/decisions/035). */
export function PrivacyPage() {
  usePageTitle('Privacy');
  return (
    <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <Link
        to="/"
        className="-ml-2 inline-flex min-h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Super Mall
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Privacy</h1>
      <div className="mt-6 space-y-6 text-slate-700">
        <section aria-labelledby="counted" className="space-y-2">
          <h2 id="counted" className="text-xl font-semibold text-slate-900">
            What we count
          </h2>
          <p>
            To learn what shoppers look for, the mall counts, per day and hour: views of a shop's page, an
            offer and a product; searches (the words, how many results of each kind, and whether “Did you
            mean” was offered and taken); use of the Open-now filter; additions to Compare; taps on a shop's
            phone, email and website links; and which floor plans are seen.
          </p>
          <p>
            These are totals only — “the Sports Hub page was seen 40 times on Monday” — never a list of
            visits. A shop's managers see their own shop's totals; the mall office sees the mall's.
          </p>
        </section>
        <section aria-labelledby="never" className="space-y-2">
          <h2 id="never" className="text-xl font-semibold text-slate-900">
            What we never keep
          </h2>
          <ul className="list-disc space-y-1 pl-5">
            <li>No cookie is set for counting.</li>
            <li>
              Your address (IP), your browser's description (user agent) and your account are never stored.
            </li>
            <li>
              Search words are kept only when {SEARCH_MIN_SESSIONS_TEXT} different visitors typed the same
              words on the same day; rarer searches are counted only as “other searches”, without their words.
            </li>
            <li>
              To tell those visitors apart, the server mixes address and browser description with a secret
              that lives only in its memory, is replaced every day and is never written down; the result is
              not stored either.
            </li>
            <li>Known robots and crawlers are not counted.</li>
          </ul>
        </section>
      </div>
    </main>
  );
}
