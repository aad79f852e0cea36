import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/**
 * Per-client-address request limits. Shoppers on the mall's Wi-Fi share one address, so they are
 * generous; the per-email sign-in lockout (auth/lockout.ts) is the real defence against guessing and
 * is never turned off. Counted per server: behind N servers a client may reach N times the figure.
 */
export interface RateLimits {
  apiPerMinute: number;
  signInPerMinute: number;
  registerPerHour: number;
}

type Group = 'sign-in' | 'register' | 'api';

function groupOf(request: FastifyRequest): Group {
  const path = request.url.split('?')[0];
  if (request.method === 'POST' && path === '/api/auth/login') return 'sign-in';
  if (request.method === 'POST' && path === '/api/auth/register') return 'register';
  return 'api';
}

export async function registerRateLimits(app: FastifyInstance, limits: RateLimits): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: true,
    hook: 'onRequest',
    // Pages and assets are not limited; nor is the health check load balancers poll.
    allowList: (request) => !request.url.startsWith('/api/') || request.url === '/api/health',
    keyGenerator: (request) => `${groupOf(request)}|${request.ip}`,
    max: (request) => {
      const group = groupOf(request);
      if (group === 'sign-in') return limits.signInPerMinute;
      if (group === 'register') return limits.registerPerHour;
      return limits.apiPerMinute;
    },
    timeWindow: (request) => (groupOf(request) === 'register' ? 60 * 60 * 1000 : 60 * 1000),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'RATE_LIMITED', `Too many requests. Try again in ${context.after}.`),
  });
}
