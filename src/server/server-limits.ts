import fs from 'node:fs';

/**
 * How long the HTTP server waits for a client (ms). Without these, a connection that sends nothing, or
 * trickles its headers or body, is held for ever (Fastify's requestTimeout is 0 by default), and a flood
 * of them uses up the process's file descriptors.
 */
export interface ServerTimeouts {
  /** The whole request, headers and body, must arrive within this (a trickled body gets 408). */
  requestMs: number;
  /** The headers must arrive within this of the connection or of the request's first byte (else 408). */
  headersMs: number;
  /** A keep-alive connection idle this long after an answer is closed. */
  keepAliveMs: number;
  /** A socket with no traffic either way for this long is closed (Fastify's connectionTimeout). */
  idleSocketMs: number;
  /**
   * How often Node enforces requestMs and headersMs (its connectionsCheckingInterval, 30 s by default:
   * a timed-out request could otherwise hold its connection that much longer).
   */
  checkIntervalMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 10_000,
  idleSocketMs: 60_000,
  checkIntervalMs: 1_000,
};

/** Descriptors kept free beyond those open when the server starts: database files and sockets, static files. */
export const RESERVED_DESCRIPTORS = 128;
/** The default cap never goes above this, however high the descriptor limit. */
export const MAX_CONNECTIONS_CEILING = 10_000;
/** …nor below this, however low. */
export const MIN_DEFAULT_CONNECTIONS = 16;
/** The default cap where the descriptor limit cannot be read (not Linux). */
export const FALLBACK_MAX_CONNECTIONS = 1_000;

/**
 * The soft limit on open files in the text of /proc/self/limits: a number, Infinity for "unlimited",
 * undefined when the line is missing or unreadable.
 */
export function parseOpenFilesLimit(limitsText: string): number | undefined {
  const line = limitsText.split('\n').find((row) => row.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  if (soft === 'unlimited') return Number.POSITIVE_INFINITY;
  const value = Number(soft);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The connection cap for a descriptor limit, given the descriptors already open (the database's files
 * and sockets, the image and import workers, logs…): what is left after RESERVED_DESCRIPTORS more, between
 * MIN_DEFAULT_CONNECTIONS and MAX_CONNECTIONS_CEILING; FALLBACK_MAX_CONNECTIONS when the limit is unknown.
 */
export function maxConnectionsFor(openFilesLimit: number | undefined, descriptorsInUse: number): number {
  if (openFilesLimit === undefined) return FALLBACK_MAX_CONNECTIONS;
  const room = openFilesLimit - descriptorsInUse - RESERVED_DESCRIPTORS;
  return Math.min(MAX_CONNECTIONS_CEILING, Math.max(MIN_DEFAULT_CONNECTIONS, room));
}

/**
 * The default cap for this process, read now (call it once the database is open): its soft limit on
 * open files from /proc/self/limits, minus the descriptors it has open (/proc/self/fd) and
 * RESERVED_DESCRIPTORS. (Node raises the soft limit to the hard one as it starts.)
 */
export function defaultMaxConnections(): number {
  let limit: number | undefined;
  let inUse = 0;
  try {
    limit = parseOpenFilesLimit(fs.readFileSync('/proc/self/limits', 'utf8'));
    inUse = fs.readdirSync('/proc/self/fd').length;
  } catch {
    // Not Linux, or /proc not mounted: the fallback figure (when the limit itself was not read).
  }
  return maxConnectionsFor(limit, inUse);
}
