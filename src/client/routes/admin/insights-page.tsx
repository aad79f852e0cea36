import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { EmptySearchRow, InsightsReport } from '../../../shared/insights';
import { AdminScreen } from '../../components/admin-page';
import { Button } from '../../components/ui/button';
import { type Column, DataTable, RowButton } from '../../components/ui/data-table';
import { TextField } from '../../components/ui/form-field';
import { QueryView } from '../../components/ui/query-states';
import { downloadCsv, insightsQuery, LazyDayChart, toCsv } from '../../features/insights';
import { AddSynonymForm } from './synonyms-page';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** /admin/insights: what shoppers looked at and searched for, over a range of days (docs/decisions/035). */
export function InsightsPage() {
  const [params, setParams] = useSearchParams();
  const from = DATE.test(params.get('from') ?? '') ? (params.get('from') ?? undefined) : undefined;
  const to = DATE.test(params.get('to') ?? '') ? (params.get('to') ?? undefined) : undefined;
  const report = useQuery(insightsQuery({ from, to }));
  const [draft, setDraft] = useState({ from: from ?? '', to: to ?? '' });

  function apply(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams();
    if (draft.from) next.set('from', draft.from);
    if (draft.to) next.set('to', draft.to);
    setParams(next);
  }

  return (
    <AdminScreen
      title="Insights"
      description="What shoppers look at and search for, per day. Counted without cookies and without knowing who; bots left out."
    >
      <form onSubmit={apply} className="flex flex-wrap items-end gap-3" aria-label="Date range">
        <TextField
          label="From"
          type="date"
          value={draft.from}
          onChange={(event) => setDraft({ ...draft, from: event.target.value })}
        />
        <TextField
          label="To"
          type="date"
          value={draft.to}
          onChange={(event) => setDraft({ ...draft, to: event.target.value })}
        />
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </form>
      <QueryView query={report} loading={<div className="h-96 animate-pulse rounded-2xl bg-slate-100" />}>
        {(data) => <Report data={data} />}
      </QueryView>
    </AdminScreen>
  );
}

const TOTALS: ReadonlyArray<[string, string]> = [
  ['shop_view', 'Shop page views'],
  ['offer_view', 'Offer views'],
  ['product_view', 'Product views'],
  ['search', 'Searches'],
  ['search_empty', 'Searches that found nothing'],
  ['open_now', 'Open-now filter used'],
  ['compare_add', 'Added to compare'],
  ['floor_plan', 'Floor plans seen'],
];

function Report({ data }: { data: InsightsReport }) {
  const range = `${data.from}_${data.to}`;
  const taps = (data.totals.tap_phone ?? 0) + (data.totals.tap_email ?? 0) + (data.totals.tap_website ?? 0);
  return (
    <div className="space-y-8">
      <p className="text-sm text-slate-600">
        From {data.from} to {data.to}.
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {TOTALS.map(([metric, label]) => (
          <Figure key={metric} label={label} value={data.totals[metric] ?? 0} />
        ))}
        <Figure label="Contact taps" value={taps} />
        <Figure label="Did you mean taken" value={data.totals.dym_taken ?? 0} />
      </dl>
      <div className="grid gap-4 lg:grid-cols-2">
        <LazyDayChart label="Views per day" days={data.viewsPerDay} />
        <LazyDayChart label="Searches per day" days={data.searchesPerDay} />
      </div>

      <Section
        title="Searches that found nothing"
        csv={() =>
          downloadCsv(
            `searches-that-found-nothing_${range}.csv`,
            toCsv(
              ['text', 'searches', 'closest', 'finds now'],
              data.emptySearches.map((row) => [row.text, row.searches, row.closest, row.findsNow]),
            ),
          )
        }
      >
        <EmptySearches rows={data.emptySearches} />
      </Section>

      <Section
        title="Top searches"
        csv={() =>
          downloadCsv(
            `top-searches_${range}.csv`,
            toCsv(
              [
                'text',
                'searches',
                'found nothing',
                'shops',
                'products',
                'offers',
                'did you mean offered',
                'taken',
              ],
              data.topSearches.map((row) => [
                row.text,
                row.searches,
                row.empty,
                row.shops,
                row.products,
                row.offers,
                row.didYouMeanOffered,
                row.didYouMeanTaken,
              ]),
            ),
          )
        }
      >
        <DataTable
          caption="Top searches"
          loading={false}
          rows={data.topSearches}
          rowKey={(row) => row.text}
          empty="No search typed by enough people yet."
          columns={[
            { header: 'Search', cell: (row) => row.text },
            { header: 'Searches', cell: (row) => row.searches, width: 'w-24' },
            {
              header: 'Found nothing',
              cell: (row) => row.empty,
              width: 'w-32',
              className: 'hidden sm:table-cell',
            },
            {
              header: 'Results (avg.)',
              cell: (row) => `${row.shops} shops · ${row.products} products · ${row.offers} offers`,
              className: 'hidden md:table-cell',
            },
          ]}
        />
        <p className="text-sm text-slate-600">
          {data.otherSearches} other searches were typed by fewer than 3 people in a day: their text is not
          kept.
        </p>
      </Section>

      {(
        [
          ['Top shops', data.topShops, 'top-shops'],
          ['Top offers', data.topOffers, 'top-offers'],
          ['Top products', data.topProducts, 'top-products'],
        ] as const
      ).map(([title, rows, file]) => (
        <Section
          key={file}
          title={title}
          csv={() =>
            downloadCsv(
              `${file}_${range}.csv`,
              toCsv(
                ['id', 'name', 'views'],
                rows.map((row) => [row.id, row.name, row.n]),
              ),
            )
          }
        >
          <DataTable
            caption={title}
            loading={false}
            rows={rows}
            rowKey={(row) => row.id}
            empty="No views in this range."
            columns={[
              { header: 'Name', cell: (row) => row.name },
              { header: 'Views', cell: (row) => row.n, width: 'w-24' },
            ]}
          />
        </Section>
      ))}

      <Section
        title="Views and searches per day"
        csv={() =>
          downloadCsv(
            `per-day_${range}.csv`,
            toCsv(
              ['day', 'views', 'searches'],
              data.viewsPerDay.map((row, index) => [row.day, row.n, data.searchesPerDay[index]?.n ?? 0]),
            ),
          )
        }
      >
        <details className="rounded-xl border border-slate-200 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-800">Show as a table</summary>
          <table className="mt-2 w-full text-left">
            <caption className="sr-only">Views and searches per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Views</th>
                <th scope="col">Searches</th>
              </tr>
            </thead>
            <tbody>
              {data.viewsPerDay.map((row, index) => (
                <tr key={row.day}>
                  <td>{row.day}</td>
                  <td>{row.n}</td>
                  <td>{data.searchesPerDay[index]?.n ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </Section>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

function Section({ title, csv, children }: { title: string; csv: () => void; children: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <Button variant="secondary" size="sm" onClick={csv}>
          <Download aria-hidden="true" className="size-4" />
          Download CSV<span className="sr-only"> of {title.toLowerCase()}</span>
        </Button>
      </div>
      {children}
    </section>
  );
}

/** Each search that found nothing, what the mall has closest, and a synonym made from it in place. */
function EmptySearches({ rows }: { rows: readonly EmptySearchRow[] }) {
  const [adding, setAdding] = useState<string | null>(null);
  const columns: Column<EmptySearchRow>[] = [
    { header: 'Search', cell: (row) => row.text },
    { header: 'Times', cell: (row) => row.searches, width: 'w-20' },
    {
      header: 'Closest the mall has',
      cell: (row) => row.closest ?? '—',
      className: 'hidden sm:table-cell',
    },
    {
      header: 'Finds now',
      cell: (row) => (row.findsNow > 0 ? `${row.findsNow} results` : 'Nothing'),
      width: 'w-28',
    },
    {
      header: 'Synonym',
      srOnlyHeader: true,
      width: 'w-36',
      cell: (row) => (
        <RowButton label={`Add a synonym for ${row.text}`} onClick={() => setAdding(row.text)}>
          Add synonym
        </RowButton>
      ),
    },
  ];
  const row = rows.find((candidate) => candidate.text === adding);
  return (
    <div className="space-y-3">
      <DataTable
        caption="Searches that found nothing"
        loading={false}
        rows={rows}
        rowKey={(entry) => entry.text}
        empty="No search typed by enough people found nothing."
        columns={columns}
      />
      {row ? (
        <AddSynonymForm
          key={row.text}
          initialTerm={row.text}
          initialReplacement={row.closest ?? ''}
          onDone={() => setAdding(null)}
        />
      ) : null}
      <p className="text-sm text-slate-600">
        <Link to="/admin/synonyms" className="font-medium text-indigo-700 underline">
          All synonyms
        </Link>
      </p>
    </div>
  );
}
