// The footer under the directory's pages and the shoppers' area: what the site is, and where to read
// what is counted and never kept (/privacy, docs/decisions/035).

export function SiteFooter({
  note,
  links,
}: {
  note?: string;
  links: ReadonlyArray<{ to: string; label: string }>;
}) {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-sm text-slate-600 sm:px-6">
        {note ? <p>{note}</p> : <span />}
        <ul className="flex flex-wrap gap-4">
          {links.map(({ to, label }) => (
            <li key={to}>
              {/* a whole page: the public pages are drawn on the server */}
              <a href={to} className="underline-offset-4 hover:text-slate-900 hover:underline">
                {label}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
