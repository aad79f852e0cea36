import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';

/**
 * Known bots (isbot's maintained list of crawlers, link previewers and monitors) and clients that send
 * no user agent at all are not counted (docs/decisions/035).
 */
export function isBot(request: FastifyRequest): boolean {
  const agent = request.headers['user-agent'];
  return !agent || isbot(agent);
}
