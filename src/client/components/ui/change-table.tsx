// A record's fields side by side: the value before and the value after (the Activity screen's change,
// an offer's proposed change under review).

export interface ChangeRow {
  key: string;
  label: string;
  before: string;
  after: string;
}

export function ChangeTable({
  caption,
  headings: [beforeHeading, afterHeading],
  rows,
  emphasiseAfter = false,
  className = 'min-w-72',
}: {
  /** Read by screen readers only. */
  caption: string;
  headings: readonly [before: string, after: string];
  rows: readonly ChangeRow[];
  /** The "after" column in medium weight (a proposal to decide on). */
  emphasiseAfter?: boolean;
  className?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className={`w-full text-left text-sm ${className}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            {['Field', beforeHeading].map((heading) => (
              <th key={heading} scope="col" className="py-1 pr-3 font-medium whitespace-nowrap">
                {heading}
              </th>
            ))}
            <th scope="col" className="py-1 font-medium">
              {afterHeading}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {rows.map((row) => (
            <tr key={row.key}>
              {/* a field's name is never broken inside a word, however long the values beside it */}
              <th scope="row" className="py-1.5 pr-3 font-medium whitespace-nowrap text-slate-700">
                {row.label}
              </th>
              <td className="py-1.5 pr-3 wrap-anywhere text-slate-600">{row.before}</td>
              <td className={`py-1.5 wrap-anywhere text-slate-900 ${emphasiseAfter ? 'font-medium' : ''}`}>
                {row.after}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
