import type { IncomingHttpHeaders } from 'node:http';
import { isbot } from 'isbot';

/** User agents already judged: a few browsers' strings make most of the traffic, and isbot's pattern is long. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 2_000;

/**
 * Known bots (isbot's maintained list of crawlers, link previewers and monitors) and clients that send
 * no user agent at all are not counted (docs/decisions/035).
 */
export function isBot(request: { headers: IncomingHttpHeaders }): boolean {
  const agent = request.headers['user-agent'];
  if (!agent) return true;
  let bot = judged.get(agent);
  if (bot === undefined) {
    bot = isbot(agent);
    // A flood of made-up agents empties the memo rather than growing it.
    if (judged.size >= JUDGED_MAX) judged.clear();
    judged.set(agent, bot);
  }
  return bot;
}
