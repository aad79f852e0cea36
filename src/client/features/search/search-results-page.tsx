import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { SearchKind, SearchResults } from '../../../shared/search';
import { Button } from '../../components/ui/button';
import { LoadingStatus } from '../../components/ui/loading-status';
import { PagedList } from '../../components/ui/paged-list';
import { EmptyState, QueryView, SkeletonList } from '../../components/ui/query-states';
import { SearchField } from '../../components/ui/search-field';
import { cn } from '../../lib/cn';
import { countHit } from '../../lib/insights';
import { usePageTitle } from '../../lib/page-title';
import { pageFrom, usePageParam } from '../../lib/use-list-params';
import { Picture } from '../images';
import { countsText, type ResultLinks, resultLinks, type SearchArea, searchQuery, totalFound } from './api';

const KINDS: ReadonlyArray<{ kind: SearchKind; title: string; one: string; many: string }> = [
  { kind: 'shops', title: 'Shops', one: 'shop', many: 'shops' },
  { kind: 'products', title: 'Products', one: 'product', many: 'products' },
  { kind: 'offers', title: 'Offers', one: 'offer', many: 'offers' },
];
/** Per page of one group: the server's default (SEARCH_PAGE_SIZE in shared/search.ts). */
const PAGE_SIZE = 20;

const isKind = (value: string | null): value is SearchKind =>
  value === 'shops' || value === 'products' || value === 'offers';

/** What a results page's address asks for: the text, one group (`&kind=`) and its page. */
function resultsParams(params: URLSearchParams): { q: string; kind: SearchKind | undefined; page: number } {
  const q = (params.get('q') ?? '').trim();
  const kindParam = params.get('kind');
  const kind = isKind(kindParam) ? kindParam : undefined;
  return { q, kind, page: kind ? pageFrom(params) : 1 };
}

/** The results page's read for its address (the page's and its prefetch's: routes/user/search-page.tsx). */
export function resultsQuery(params: URLSearchParams) {
  const { q, kind, page } = resultsParams(params);
  return searchQuery({ q, kind, page: kind ? page : undefined });
}

/**
 * The full results of the mall-wide search, `/{area}/search?q=…` (shareable): every group's best five
 * with its count, or one group (`&kind=`) page by page.
 */
export function SearchResultsPage({ area }: { area: SearchArea }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { q, kind, page } = resultsParams(params);
  const links = resultLinks(area);
  const results = useQuery({ ...resultsQuery(params), enabled: q !== '' });
  const topRef = useRef<HTMLElement>(null);
  const { goToPage } = usePageParam(topRef);

  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    // back/forward changed ?q=: show it in the box
    setShownQ(q);
    setText(q);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = text.trim();
    if (next) void navigate(links.page(next, kind));
  }

  const data = results.data;
  usePageTitle(q ? `Search: ${q}` : 'Search');
  // A shopper's search, counted once per text shown (insights): what it found of each kind, and whether
  // "Did you mean" was offered. The "All" view only (a kind's page finds one kind); not the office's.
  const counted = useRef('');
  const answered = results.isSuccess && !results.isPlaceholderData ? data : undefined;
  useEffect(() => {
    if (area === 'admin' || kind || !answered || counted.current === answered.q) return;
    counted.current = answered.q;
    countHit({
      kind: 'search',
      q: answered.q,
      shops: answered.shops?.total ?? 0,
      products: answered.products?.total ?? 0,
      offers: answered.offers?.total ?? 0,
      didYouMean: answered.didYouMean !== null,
    });
  }, [area, kind, answered]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Search</h1>
        <p className="mt-1 text-sm text-slate-600">
          Shops, products and running offers, spelt however you like.
        </p>
      </div>

      <search>
        <form
          method="get"
          action={links.page('').split('?')[0]}
          onSubmit={submit}
          className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
        >
          <div className="min-w-0 flex-1 basis-56">
            <SearchField
              label="Search the mall"
              name="q"
              value={text}
              maxLength={100}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <Button type="submit" className="min-h-10" disabled={!text.trim()}>
            Search
          </Button>
        </form>
      </search>

      {q === '' ? (
        <EmptyState
          title="Type something to search for"
          icon={<SearchX aria-hidden="true" className="size-6" />}
        />
      ) : (
        <section ref={topRef} aria-labelledby="search-results" className="scroll-mt-36 space-y-5">
          <h2 id="search-results" className="sr-only">
            Results
          </h2>
          <nav aria-label="Result kinds" className="flex flex-wrap gap-2">
            <KindLink to={links.page(q)} current={!kind} label="All" />
            {KINDS.map((k) => (
              <KindLink
                key={k.kind}
                to={links.page(q, k.kind)}
                current={kind === k.kind}
                label={k.title}
                count={countOf(data, k.kind)}
              />
            ))}
          </nav>
          <div className="flex min-h-6 items-center gap-3">
            <p aria-live="polite" className="text-sm font-medium text-slate-700">
              {data && !results.isPlaceholderData
                ? totalFound(data) === 0
                  ? `No results for “${q}”`
                  : `${countsText(data)} for “${data.searched}”`
                : null}
            </p>
            {/* why: while another text, kind or page loads, not for the quiet refresh of the results shown (a
                server-rendered page would show it for ever without JavaScript) */}
            {results.isPlaceholderData ? <LoadingStatus label="Searching" /> : null}
          </div>

          <QueryView
            query={results}
            loading={
              <SkeletonList count={4} className="space-y-3" label="Searching">
                <div className="h-16 animate-pulse rounded-xl bg-slate-200" />
              </SkeletonList>
            }
            isEmpty={(found) => totalFound(found) === 0}
            empty={
              <EmptyState title="Nothing found" icon={<SearchX aria-hidden="true" className="size-6" />}>
                {data?.didYouMean ? (
                  <p>
                    Did you mean{' '}
                    <Link
                      className="font-medium text-indigo-700 underline"
                      to={links.page(data.didYouMean, kind)}
                      onClick={() => {
                        if (area !== 'admin') countHit({ kind: 'dym_taken', q: data.q });
                      }}
                    >
                      {data.didYouMean}
                    </Link>
                    ?
                  </p>
                ) : (
                  <p>Try another spelling or a shorter word.</p>
                )}
              </EmptyState>
            }
          >
            {(found) =>
              kind ? (
                <GroupPage
                  found={found}
                  kind={kind}
                  links={links}
                  page={page}
                  stale={results.isPlaceholderData}
                  onPageChange={goToPage}
                />
              ) : (
                <div className="space-y-8">
                  {KINDS.map((k) => (
                    <GroupPreview key={k.kind} found={found} group={k} links={links} q={q} />
                  ))}
                </div>
              )
            }
          </QueryView>
        </section>
      )}
    </div>
  );
}

function countOf(data: SearchResults | undefined, kind: SearchKind): string | undefined {
  const group = data?.[kind];
  if (!group) return undefined;
  return group.totalCapped ? `${group.total}+` : String(group.total);
}

function KindLink({
  to,
  current,
  label,
  count,
}: {
  to: string;
  current: boolean;
  label: string;
  count?: string;
}) {
  return (
    <Link
      to={to}
      aria-current={current ? 'page' : undefined}
      className={cn(
        'inline-flex min-h-10 items-center gap-1.5 rounded-full border px-4 text-sm font-medium',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        current
          ? 'border-indigo-600 bg-indigo-600 text-white'
          : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
      )}
    >
      {label}
      {count !== undefined ? (
        <span className={current ? 'text-indigo-100' : 'text-slate-500'}>({count})</span>
      ) : null}
    </Link>
  );
}

interface Row {
  id: string;
  title: string;
  detail: string;
  href: string;
  /** The shop's logo or the product's photo; a monogram of `name` when `image` is null. */
  picture: { image: string | null; name: string; fit: 'cover' | 'contain' };
  /** Counted when opened (insights): a product's or offer's view; a shop's page counts its own. */
  view?: { kind: 'product_view' | 'offer_view'; id: string };
}

function rowsOf(found: SearchResults, kind: SearchKind, links: ResultLinks): Row[] {
  if (kind === 'shops')
    return (found.shops?.items ?? []).map((shop) => ({
      id: shop.id,
      title: shop.name,
      detail: [shop.category, shop.floor, shop.location].filter(Boolean).join(' · '),
      href: links.shop(shop),
      picture: { image: shop.logo, name: shop.name, fit: 'contain' },
    }));
  if (kind === 'products')
    return (found.products?.items ?? []).map((product) => ({
      id: product.id,
      title: product.name,
      detail: [product.category, product.shopName].filter(Boolean).join(' · '),
      href: links.product(product),
      picture: { image: product.image, name: product.name, fit: 'cover' },
      view: links.counted ? { kind: 'product_view', id: product.id } : undefined,
    }));
  return (found.offers?.items ?? []).map((offer) => ({
    id: offer.id,
    title: offer.title,
    detail: `${offer.discount}% off · ${offer.shopName}`,
    href: links.offer(offer),
    picture: { image: offer.shopLogo, name: offer.shopName, fit: 'contain' },
    view: links.counted ? { kind: 'offer_view', id: offer.id } : undefined,
  }));
}

function ResultRow({ row }: { row: Row }) {
  return (
    <Link
      to={row.href}
      onClick={row.view ? () => row.view && countHit(row.view) : undefined}
      className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm transition hover:border-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <Picture
        image={row.picture.image}
        name={row.picture.name}
        sizes="3rem"
        fit={row.picture.fit}
        decorative
        className="size-12 shrink-0 rounded-lg border border-slate-100 bg-white text-sm"
      />
      <span className="min-w-0">
        <span className="block font-medium text-slate-900">{row.title}</span>
        <span className="block text-sm text-slate-600">{row.detail}</span>
      </span>
    </Link>
  );
}

function GroupPreview({
  found,
  group,
  links,
  q,
}: {
  found: SearchResults;
  group: (typeof KINDS)[number];
  links: ResultLinks;
  q: string;
}) {
  const rows = rowsOf(found, group.kind, links);
  const data = found[group.kind];
  const total = data?.total ?? 0;
  const headingId = `search-${group.kind}`;
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className="text-lg font-semibold text-slate-900">
        {group.title} <span className="font-normal text-slate-500">({countOf(found, group.kind) ?? 0})</span>
      </h3>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No {group.many} found.</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {rows.map((row) => (
            <li key={row.id}>
              <ResultRow row={row} />
            </li>
          ))}
        </ul>
      )}
      {total > rows.length ? (
        <Link
          to={links.page(q, group.kind)}
          className="inline-block text-sm font-medium text-indigo-700 underline"
        >
          See all {countOf(found, group.kind)} {total === 1 ? group.one : group.many}
        </Link>
      ) : null}
    </section>
  );
}

function GroupPage({
  found,
  kind,
  links,
  page,
  stale,
  onPageChange,
}: {
  found: SearchResults;
  kind: SearchKind;
  links: ResultLinks;
  page: number;
  stale: boolean;
  onPageChange(page: number): void;
}) {
  const group = found[kind];
  const title = KINDS.find((k) => k.kind === kind)?.title ?? '';
  const pageCount = Math.max(1, Math.ceil((group?.total ?? 0) / (group?.pageSize ?? PAGE_SIZE)));
  return (
    <PagedList
      label={title}
      className="grid gap-3 sm:grid-cols-2"
      items={rowsOf(found, kind, links)}
      render={(row) => <ResultRow row={row} />}
      stale={stale}
      pagination={{ label: `${title} pages`, page, pageCount, onPageChange }}
    />
  );
}
