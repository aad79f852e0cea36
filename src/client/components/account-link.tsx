import { Link } from 'react-router';

/**
 * The name in the top bar's greeting ('Welcome, {display name or email}'), a link to the person's own
 * account page: no room is taken from the greeting, whose text stays as the spec writes it. Its name
 * for assistive tech says where it goes, the visible name first.
 */
export function AccountLink({ name }: { name: string }) {
  return (
    <Link
      to="/account"
      aria-label={`${name}: your account`}
      className="rounded font-medium text-slate-900 underline decoration-slate-300 underline-offset-4 hover:text-indigo-700 hover:decoration-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
    >
      {name}
    </Link>
  );
}
