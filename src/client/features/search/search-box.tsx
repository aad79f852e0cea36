import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { SearchResults } from '../../../shared/search';
import { SearchIcon } from '../../components/ui/search-field';
import { cn } from '../../lib/cn';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { Picture } from '../images';
import { countsText, resultLinks, type SearchArea, searchQuery, totalFound } from './api';

/** Below this many characters the box waits: one letter matches half the mall. */
const MIN_CHARACTERS = 2;
const DEBOUNCE_MS = 200;

interface Option {
  id: string;
  label: string;
  detail: string;
  href: string;
  /** The shop's logo or the product's photo (a monogram of `pictureName` when null). */
  picture: { image: string | null; name: string };
}

interface Group {
  key: 'shops' | 'products' | 'offers';
  title: string;
  options: Option[];
}

/** The dropdown's groups, each with its best few, in the server's order. */
function groupsOf(results: SearchResults, area: SearchArea, optionId: (key: string, id: string) => string) {
  const links = resultLinks(area);
  const groups: Group[] = [
    {
      key: 'shops',
      title: 'Shops',
      options: (results.shops?.items ?? []).map((shop) => ({
        id: optionId('shops', shop.id),
        label: shop.name,
        detail: `${shop.category} · ${shop.floor}`,
        href: links.shop(shop),
        picture: { image: shop.logo, name: shop.name },
      })),
    },
    {
      key: 'products',
      title: 'Products',
      options: (results.products?.items ?? []).map((product) => ({
        id: optionId('products', product.id),
        label: product.name,
        detail: product.shopName,
        href: links.product(product),
        picture: { image: product.image, name: product.name },
      })),
    },
    {
      key: 'offers',
      title: 'Offers',
      options: (results.offers?.items ?? []).map((offer) => ({
        id: optionId('offers', offer.id),
        label: offer.title,
        detail: `${offer.discount}% off · ${offer.shopName}`,
        href: links.offer(offer),
        picture: { image: offer.shopLogo, name: offer.shopName },
      })),
    },
  ];
  return groups.filter((group) => group.options.length > 0);
}

/**
 * The top bar's search: an ARIA 1.2 combobox with a grouped listbox of the best few shops, products and
 * offers. Arrows move through the results, Enter opens the chosen one (or, with none chosen, the full
 * results page), Escape closes the list and then clears the box; the counts are announced politely.
 */
export function SearchBox({ area, className }: { area: SearchArea; className?: string }) {
  const navigate = useNavigate();
  const baseId = useId();
  const listId = `${baseId}-list`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = text.trim();
  const q = useDebouncedValue(typed, DEBOUNCE_MS);
  const enabled = q.length >= MIN_CHARACTERS;
  const results = useQuery({ ...searchQuery({ q }), enabled });
  // the previous search's results stay up while the next loads (no flicker); counts are announced fresh only
  const data = enabled ? results.data : undefined;
  const fresh = data !== undefined && !results.isPlaceholderData && typed === q;

  const groups = useMemo(
    () => (data ? groupsOf(data, area, (key, id) => `${baseId}-${key}-${id}`) : []),
    [data, area, baseId],
  );
  const options = groups.flatMap((group) => group.options);
  const activeOption = active >= 0 ? options[active] : undefined;
  const expanded = open && typed.length >= MIN_CHARACTERS;
  const pending = typed !== q || (enabled && results.isFetching && !data);

  function go(href: string) {
    setOpen(false);
    setActive(-1);
    inputRef.current?.blur();
    void navigate(href);
  }

  function openFullResults() {
    if (!typed) return;
    go(resultLinks(area).page(typed));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // From the box, Down goes to the first result and Up to the last; past either end, back to the box.
      setActive((current) => {
        const next = current + step;
        if (current === -1) return step === 1 ? 0 : options.length - 1;
        return next < 0 || next >= options.length ? -1 : next;
      });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (expanded && activeOption) go(activeOption.href);
      else openFullResults();
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        event.preventDefault();
        setText('');
      }
    }
  }

  let announcement = '';
  if (expanded && data && fresh) {
    announcement =
      totalFound(data) === 0
        ? `No results${data.didYouMean ? `. Did you mean ${data.didYouMean}?` : ''}`
        : `${countsText(data)} found`;
  }

  return (
    // why: a GET form to the results page, so the box searches before any script has run (a server-
    // rendered public page); once the app runs, Enter is handled above and the form is never sent
    <form
      method="get"
      action={resultLinks(area).page('').split('?')[0]}
      onSubmit={(event) => event.preventDefault()}
      className={cn('relative', className)}
    >
      <label htmlFor={`${baseId}-input`} className="sr-only">
        Search the mall
      </label>
      <div className="relative">
        <SearchIcon />
        <input
          ref={inputRef}
          id={`${baseId}-input`}
          type="text"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && activeOption ? activeOption.id : undefined}
          name="q"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          placeholder="Search shops, products, offers"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className={cn(
            'block h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm text-slate-900 shadow-sm',
            'outline-none transition placeholder:text-slate-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30',
          )}
        />
      </div>
      <div role="status" aria-live="polite" className="sr-only">
        {announcement}
      </div>
      <div
        className={cn(
          expanded ? 'block' : 'hidden',
          'absolute inset-x-0 top-full z-50 mt-1 max-h-[70vh] overflow-y-auto rounded-xl border border-slate-200 bg-white py-1 shadow-lg',
          'min-w-72 md:right-auto md:w-96',
        )}
      >
        {/* the listbox stays in the page (aria-controls must name an element); hidden while closed */}
        <div
          id={listId}
          role="listbox"
          aria-label="Search results"
          // a click on a result must not blur the box first (that would close the list under the pointer)
          onMouseDown={(event) => event.preventDefault()}
        >
          {groups.map((group) => (
            // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are role=group (ARIA 1.2), not fieldsets
            <div key={group.key} role="group" aria-labelledby={`${baseId}-${group.key}-title`}>
              <div
                id={`${baseId}-${group.key}-title`}
                role="presentation"
                className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase"
              >
                {group.title}
                {data ? (
                  <span className="ml-1 font-normal normal-case">({countOf(data, group.key)})</span>
                ) : null}
              </div>
              {group.options.map((option) => {
                const selected = activeOption?.id === option.id;
                return (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the combobox's (aria-activedescendant): focus never leaves the box
                  <div
                    key={option.id}
                    id={option.id}
                    role="option"
                    aria-selected={selected}
                    tabIndex={-1}
                    onClick={() => go(option.href)}
                    onMouseMove={() => setActive(options.indexOf(option))}
                    className={cn(
                      'mx-1 flex cursor-pointer items-center gap-2.5 rounded-lg px-2 py-1.5',
                      selected ? 'bg-indigo-50 text-indigo-900' : 'text-slate-900',
                    )}
                  >
                    <Picture
                      image={option.picture.image}
                      name={option.picture.name}
                      sizes="2rem"
                      fit={group.key === 'products' ? 'cover' : 'contain'}
                      // why: the list opens in view; lazily, its pictures came in after it, one by one
                      eager
                      decorative
                      className="size-8 shrink-0 rounded-md border border-slate-100 bg-white text-xs"
                    />
                    <span className="flex min-w-0 flex-col">
                      <span className="truncate text-sm font-medium">{option.label}</span>
                      <span className="truncate text-xs text-slate-500">{option.detail}</span>
                    </span>
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        <StatusLine
          pending={pending}
          failed={results.isError && !data}
          data={fresh ? data : undefined}
          onSuggestion={(word) => {
            setText(word);
            inputRef.current?.focus();
          }}
        />
        {typed.length >= MIN_CHARACTERS ? (
          <button
            type="button"
            tabIndex={-1}
            onMouseDown={(event) => event.preventDefault()}
            onClick={openFullResults}
            className="mt-1 block w-full border-t border-slate-100 px-3 pt-2 pb-1.5 text-left text-sm font-medium text-indigo-700 hover:bg-slate-50"
          >
            See all results for “{typed}” (Enter)
          </button>
        ) : null}
      </div>
    </form>
  );
}

function countOf(data: SearchResults, key: Group['key']): string {
  const group = data[key];
  if (!group) return '0';
  return group.totalCapped ? `${group.total}+` : String(group.total);
}

/** Under the results: searching…, a failure, or nothing found with a "Did you mean". */
function StatusLine({
  pending,
  failed,
  data,
  onSuggestion,
}: {
  pending: boolean;
  failed: boolean;
  data: SearchResults | undefined;
  onSuggestion(word: string): void;
}) {
  if (pending) return <p className="px-3 py-2 text-sm text-slate-500">Searching…</p>;
  if (failed) return <p className="px-3 py-2 text-sm text-red-700">Search failed. Please try again.</p>;
  if (!data || totalFound(data) > 0) return null;
  return (
    <p className="px-3 py-2 text-sm text-slate-600">
      No results.
      {data.didYouMean ? (
        <>
          {' '}
          Did you mean{' '}
          <button
            type="button"
            tabIndex={-1}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onSuggestion(data.didYouMean ?? '')}
            className="font-medium text-indigo-700 underline"
          >
            {data.didYouMean}
          </button>
          ?
        </>
      ) : null}
    </p>
  );
}
