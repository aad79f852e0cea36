import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type pg from 'pg';
import { errorBody } from './errors';

export interface OverloadOptions {
  pool: Pick<pg.Pool, 'waitingCount'>;
  /** Queries allowed to wait for a connection before new requests are turned away. */
  maxDbQueue: number;
  /** Event-loop lag (ms) above which new requests are turned away; 0 = no check. */
  maxEventLoopDelayMs: number;
  /** How often the event loop is sampled (under-pressure's sampleInterval); tests shorten it. */
  sampleIntervalMs?: number;
}

export const OVERLOADED_MESSAGE = 'The mall is very busy right now. Please try again in a moment.';
const RETRY_AFTER_SECONDS = 5;

function sendOverloaded(reply: FastifyReply) {
  return reply
    .status(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send(errorBody('OVERLOADED', OVERLOADED_MESSAGE));
}

/**
 * Overload is answered with 503 + Retry-After before any work is done, instead of queueing without
 * bound until memory runs out: when too many queries already wait for a database connection, and
 * (@fastify/under-pressure) while the event loop lags. The queue check spares the health check: a
 * load balancer should keep sending traffic to a busy server, not take it out.
 */
export async function registerOverloadGuards(app: FastifyInstance, options: OverloadOptions): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/api/health') return;
    if (options.pool.waitingCount >= options.maxDbQueue) return sendOverloaded(reply);
  });
  if (options.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs,
      ...(options.sampleIntervalMs ? { sampleInterval: options.sampleIntervalMs } : {}),
      pressureHandler: (_request, reply) => {
        sendOverloaded(reply);
      },
    });
  }
}
