import { createHmac, randomBytes } from 'node:crypto';
import { type Metric, SEARCH_MIN_SESSIONS } from '../../../shared/insights';
import type { Db } from '../../db/client';

/** How often a server adds its counts to the database: the most a kill -9 can lose (decision 035). */
export const DEFAULT_FLUSH_MS = 5_000;
/** Distinct (day, hour, metric, subject) keys held between flushes; hits beyond are dropped (and counted). */
const MAX_KEYS = 100_000;
/** Search texts followed per day while they wait for enough sessions; more count as "other searches". */
const MAX_TEXTS = 20_000;

const FLUSH = `
  insert into insight_counts (day, hour, metric, subject, n)
  select day, hour, metric, subject, n
    from unnest($1::date[], $2::smallint[], $3::text[], $4::text[], $5::bigint[]) as t(day, hour, metric, subject, n)
   order by day, hour, metric, subject
  on conflict (day, hour, metric, subject) do update set n = insight_counts.n + excluded.n`;

export interface CounterOptions {
  db: Db;
  timeZone: string;
  now: () => Date;
  /** Milliseconds between flushes; 0: only when asked (tests). */
  flushMs?: number;
  /** Sessions of a day that must type a text before it is kept (SEARCH_MIN_SESSIONS). */
  minSessions?: number;
  onError?: (error: unknown) => void;
}

/** A search as counted: its folded text, what it found, and whether "Did you mean" was offered. */
export interface CountedSearch {
  text: string;
  shops: number;
  products: number;
  offers: number;
  didYouMean: boolean;
}

interface Followed {
  /** Sessions (keyed hashes) seen typing it today, until there are enough; then null: it is kept. */
  sessions: Set<string> | null;
  /** What it added under "other searches" while it waited, moved to its own text once kept. */
  waiting: Map<string, number>;
}

/**
 * Counts in memory, adds to the database in one statement per flush (docs/decisions/035).
 *
 * Nothing here asks the database on a hit: a hit is a map increment. Each server flushes its own counts
 * with `n = n + excluded.n`, so the sums over any number of servers are exact; a flush that fails is
 * merged back and tried again. A server killed with SIGKILL loses what it counted since its last flush.
 *
 * Sessions, for the search-text threshold only: a keyed hash of the address and user agent, under a
 * secret drawn at random for each mall day and held only in this process's memory (never written
 * anywhere), forgotten with the day's texts. Neither the address, the agent nor the hash is stored.
 */
export function createInsightCounter(options: CounterOptions) {
  const { db, timeZone, now } = options;
  const minSessions = options.minSessions ?? SEARCH_MIN_SESSIONS;
  let counts = new Map<string, number>();
  let dropped = 0;
  let statements = 0;
  let flushing: Promise<void> | null = null;
  let closed = false;
  /** Counting paused (the benchmark's "counting off" rows, PUT /api/bench/insights): hits are dropped. */
  let paused = false;

  let today = { day: '', salt: randomBytes(32), texts: new Map<string, Followed>() };

  const clock = dayHour(timeZone);

  function add(day: string, hour: number, metric: Metric, subject: string, n: number): void {
    if (n === 0) return;
    const key = `${day}\t${hour}\t${metric}\t${subject}`;
    const had = counts.get(key);
    if (had === undefined && counts.size >= MAX_KEYS) {
      dropped += 1;
      return;
    }
    counts.set(key, (had ?? 0) + n);
  }

  /** The day's followed texts: a new day forgets yesterday's texts and draws a new secret. */
  function texts(day: string): Map<string, Followed> {
    if (today.day !== day) today = { day, salt: randomBytes(32), texts: new Map() };
    return today.texts;
  }

  /**
   * Adds a search's metrics under its text once the text is kept, else under '' ("other searches"),
   * remembering them so they move to the text when enough sessions have typed it.
   */
  function addSearchMetrics(text: string, session: string, metrics: [Metric, number][]): void {
    const { day, hour } = clock(now());
    const followed = texts(day);
    let entry = followed.get(text);
    if (!entry && followed.size < MAX_TEXTS) {
      entry = { sessions: new Set(), waiting: new Map() };
      followed.set(text, entry);
    }
    if (entry?.sessions) {
      entry.sessions.add(createHmac('sha256', today.salt).update(session).digest('base64url').slice(0, 16));
      if (entry.sessions.size >= minSessions) {
        // Kept from now on: what it added to "other searches" moves to its own text.
        for (const [waitingKey, n] of entry.waiting) {
          const [waitHour, metric] = waitingKey.split('\t') as [string, Metric];
          add(day, Number(waitHour), metric, '', -n);
          add(day, Number(waitHour), metric, text, n);
        }
        entry.sessions = null;
        entry.waiting.clear();
      }
    }
    const kept = entry !== undefined && entry.sessions === null;
    for (const [metric, n] of metrics) {
      add(day, hour, metric, kept ? text : '', n);
      if (!kept && entry) {
        const waitingKey = `${hour}\t${metric}`;
        entry.waiting.set(waitingKey, (entry.waiting.get(waitingKey) ?? 0) + n);
      }
    }
  }

  async function flushOnce(): Promise<void> {
    if (counts.size === 0) return;
    const batch = counts;
    counts = new Map();
    const days: string[] = [];
    const hours: number[] = [];
    const metrics: string[] = [];
    const subjects: string[] = [];
    const ns: number[] = [];
    // In key order: servers flushing at once lock the rows they share in the same order (no deadlock).
    for (const key of [...batch.keys()].sort()) {
      const n = batch.get(key) ?? 0;
      if (n === 0) continue;
      const [day, hour, metric, subject] = key.split('\t') as [string, string, string, string];
      days.push(day);
      hours.push(Number(hour));
      metrics.push(metric);
      subjects.push(subject);
      ns.push(n);
    }
    if (days.length === 0) return;
    try {
      statements += 1;
      // Five array parameters, whatever the number of rows: one statement, one plan.
      await db.$client.query(FLUSH, [days, hours, metrics, subjects, ns]);
    } catch (error) {
      // Not lost: back into the counts, with whatever came meanwhile, for the next flush.
      for (const [key, n] of batch) counts.set(key, (counts.get(key) ?? 0) + n);
      throw error;
    }
  }

  /** Adds what is counted to the database; one flush at a time (a second waits for the first). */
  async function flush(): Promise<void> {
    while (flushing) await flushing.catch(() => undefined);
    flushing = flushOnce().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  const timer =
    (options.flushMs ?? DEFAULT_FLUSH_MS) > 0
      ? setInterval(() => {
          flush().catch((error) => options.onError?.(error));
        }, options.flushMs ?? DEFAULT_FLUSH_MS)
      : null;
  timer?.unref();

  return {
    /** A view, tap, compare addition or plan opened, of one item; or an Open-now use (no subject). */
    hit(metric: Metric, subject = ''): void {
      if (closed || paused) return;
      const { day, hour } = clock(now());
      add(day, hour, metric, subject, 1);
    },
    /** A search; `session` is the address and user agent, used only for the text's threshold. */
    search(search: CountedSearch, session: string): void {
      if (closed || paused) return;
      const found = search.shops + search.products + search.offers;
      addSearchMetrics(search.text, session, [
        ['search', 1],
        ['search_empty', found === 0 ? 1 : 0],
        ['search_shops', search.shops],
        ['search_products', search.products],
        ['search_offers', search.offers],
        ['dym_offered', search.didYouMean ? 1 : 0],
      ]);
    },
    /** "Did you mean" taken for the search `text`. */
    didYouMeanTaken(text: string, session: string): void {
      if (closed || paused) return;
      addSearchMetrics(text, session, [['dym_taken', 1]]);
    },
    flush,
    /** Pauses or resumes counting (the benchmark compares a cached read with counting on and off). */
    setPaused(value: boolean): void {
      paused = value;
    },
    /** Stops the timer and flushes what is left (the server's shutdown). */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await flush();
    },
    /** Statements written so far, hits dropped for want of room, keys waiting: for the bench and logs. */
    stats: () => ({ statements, dropped, pending: counts.size }),
  };
}
export type InsightCounter = ReturnType<typeof createInsightCounter>;

/** The mall's date and hour at an instant, worked out at most once a minute. */
function dayHour(timeZone: string) {
  const formatter = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  });
  let minute = Number.NaN;
  let value = { day: '', hour: 0 };
  return (at: Date): { day: string; hour: number } => {
    const m = Math.floor(at.getTime() / 60_000);
    if (m !== minute) {
      const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, part.value]));
      value = { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24 };
      minute = m;
    }
    return value;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The insights counter (null when MALL_INSIGHTS=off): tests flush it, the bench reads its stats. */
    insights: InsightCounter | null;
  }
}
