import { Link } from 'react-router';

/**
 * The top bar's 'Welcome, {display name or email}' (spec §2), the name a link to the person's own account
 * page: no room is taken from the greeting, whose text stays as the spec writes it. The link itself is
 * what truncates a long name, so its box ends where the text is cut off and never lies under the Logout
 * button beside it; its name for assistive tech says where it goes, the visible name first.
 */
export function Greeting({ name }: { name: string }) {
  return (
    <p className="flex min-w-0 items-center gap-1 text-sm text-slate-600">
      <span className="shrink-0">Welcome, </span>
      <Link
        to="/account"
        aria-label={`${name}: your account`}
        className="block min-w-0 truncate rounded leading-6 font-medium text-slate-900 underline decoration-slate-300 underline-offset-4 hover:text-indigo-700 hover:decoration-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {name}
      </Link>
    </p>
  );
}
