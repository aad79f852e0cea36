import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from './auth/guards';

/**
 * Only with MALL_BENCH_ROUTES=on (npm run bench). `/constant` is the framework ceiling: the same
 * plugins and the same signed-in check as a directory read, then a constant answer. `/event-loop`
 * reports the event loop's delay since the previous call (and starts a new measurement).
 */
export const benchRoutes: FastifyPluginAsync = async (app) => {
  // The histogram records the time between ticks of a timer of this period (Node measures the interval,
  // not the lateness): a stall of S ms shows as S to S + 1 ms. (At 5 ms it read up to 5 ms high.)
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  app.addHook('onClose', async () => histogram.disable());
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;

  app.get('/constant', { onRequest: requireUser }, async () => ({ ok: true, mall: 'Super Mall' }));

  app.get('/event-loop', async () => {
    const figures = {
      maxMs: ms(histogram.max),
      p99Ms: ms(histogram.percentile(99)),
      meanMs: ms(histogram.mean),
      samples: histogram.count,
    };
    histogram.reset();
    return figures;
  });
};
