// What this browser reports to insights (docs/decisions/035): views, searches, taps, gathered for a
// couple of seconds and sent in one request — no cookie of its own, nothing about who; the server leaves
// known bots out. Types only from shared/insights: this module must not pull zod into every page.
import type { HitInput, ItemHit } from '../../shared/insights';

/** The server's HITS_MAX: at most this many hits per request. */
const BATCH = 50;
const WAIT_MS = 2_000;

const queue: HitInput[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * The public page the server rendered and already counted (plugins/public-pages.ts counts a shop's page
 * as it sends it): its first view here, as it hydrates, is not counted again.
 */
let countedByServer: string | null =
  typeof document !== 'undefined' && document.getElementById('root')?.dataset.prerendered === 'page'
    ? window.location.pathname
    : null;

function send(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  while (queue.length > 0) {
    const hits = queue.splice(0, BATCH);
    // keepalive: it still goes when the page is being left
    void fetch('/api/insights/hits', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hits }),
      keepalive: true,
      credentials: 'same-origin',
    }).catch(() => undefined);
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', send);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send();
  });
}

/** Counts one hit: sent with the others of the next couple of seconds. */
export function countHit(hit: HitInput): void {
  if (typeof window === 'undefined') return;
  queue.push(hit);
  if (queue.length >= BATCH) send();
  else timer ??= setTimeout(send, WAIT_MS);
}

/** A view of an item's page (a shop's), unless it is the page the server rendered and counted. */
export function countView(kind: ItemHit, id: string): void {
  if (typeof window === 'undefined') return;
  const served = countedByServer;
  countedByServer = null;
  if (kind === 'shop_view' && served === window.location.pathname) return;
  countHit({ kind, id });
}

/** Sends what is waiting now (tests and the end-to-end suite read the report right after). */
export const flushHits = send;

/** shared/insights.ts's SEARCH_MIN_SESSIONS in words (the Privacy page), without importing its zod. */
export const SEARCH_MIN_SESSIONS_TEXT = 'at least 3';
