import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type pg from 'pg';
import { errorBody } from './errors';
import { isRenderRead } from './pages/renderer';

export interface OverloadOptions {
  pool: Pick<pg.Pool, 'waitingCount'>;
  /** Queries allowed to wait for a connection before new requests are turned away. */
  maxDbQueue: number;
  /** Event-loop lag (ms) above which new requests are turned away; 0 = no check. */
  maxEventLoopDelayMs: number;
  /** How often the event-loop lag is worked out (default 1 s, at least 10 ms); tests shorten it. */
  sampleIntervalMs?: number;
}

export const OVERLOADED_MESSAGE = 'The mall is very busy right now. Please try again in a moment.';
export const RETRY_AFTER_SECONDS = 5;

function sendOverloaded(reply: FastifyReply) {
  return reply
    .status(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send(errorBody('OVERLOADED', OVERLOADED_MESSAGE));
}

/**
 * Overload is answered with 503 + Retry-After before any work is done, instead of queueing without
 * bound until memory runs out: when too many queries already wait for a database connection, and
 * while the event loop lags. The queue check spares the health check (the matched route, however the
 * URL is spelled): a load balancer should keep sending traffic to a busy server, not take it out.
 */
export async function registerOverloadGuards(
  app: FastifyInstance,
  options: OverloadOptions,
): Promise<() => boolean> {
  const lag = options.maxEventLoopDelayMs > 0 ? watchEventLoopLag(options.sampleIntervalMs) : null;
  if (lag) app.addHook('onClose', async () => lag.stop());
  const lagging = () => lag !== null && lag.delayMs() > options.maxEventLoopDelayMs;
  const queueFull = () => options.pool.waitingCount >= options.maxDbQueue;
  // A callback, not an async hook: it decides at once, and a promise per request was a measurable part
  // of a cached page's cost (docs/decisions/043). Answering, it does not call done().
  app.addHook('onRequest', (request, reply, done) => {
    // A public page's own in-process reads: the page's request was let in, and refusing its reads would
    // only draw the page as an error (pages/renderer.ts).
    if (isRenderRead(request)) return done();
    if (lagging()) return void sendOverloaded(reply);
    if (request.routeOptions.url === '/api/health') return done();
    if (queueFull()) return void sendOverloaded(reply);
    done();
  });
  // Whether a request that is not the health check would be refused now (the kept public pages, answered
  // before the hooks, ask it: docs/decisions/045).
  return () => lagging() || queueFull();
}

/** The period (ms) of the histogram's ticks. */
const LAG_RESOLUTION_MS = 10;
const DEFAULT_SAMPLE_INTERVAL_MS = 1000;

/**
 * The event loop's lag, worked out every `sampleIntervalMs` on an unref'd timer, as
 * @fastify/under-pressure did: the mean time between the ticks of a 10 ms histogram, minus those
 * 10 ms. No tick in the whole interval means one task held the loop all along; it has ended (the
 * sample runs), so the lag is how long it held it: how late the sample came. (Counting it as infinite
 * turned a fresh server away for a second after a single long task of its own, such as loading the page
 * renderer on a starved machine, and failed a CI run.) Only
 * perf_hooks' in-memory histogram: nothing here opens a file or can throw. (under-pressure's sampler
 * also called process.memoryUsage(), which reads /proc and threw EMFILE, uncaught, once a flood of
 * connections had used up the process's file descriptors: the server exited.)
 */
function watchEventLoopLag(sampleIntervalMs = DEFAULT_SAMPLE_INTERVAL_MS) {
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  histogram.enable();
  let delayMs = 0;
  const intervalMs = Math.max(LAG_RESOLUTION_MS, sampleIntervalMs);
  let lastSample = performance.now();
  const timer = setInterval(() => {
    const at = performance.now();
    const meanMs = histogram.mean / 1e6;
    delayMs = Number.isNaN(meanMs)
      ? Math.max(0, at - lastSample - intervalMs)
      : Math.max(0, meanMs - LAG_RESOLUTION_MS);
    lastSample = at;
    histogram.reset();
  }, intervalMs);
  timer.unref();
  return {
    delayMs: () => delayMs,
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
