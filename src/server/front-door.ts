// The front door (docs/decisions/045): the HTTP server's first look at a request, before Fastify's. One
// answerer may be opened on it (the kept public pages, plugins/public-pages.ts); it answers what it can
// and says so, and every other request goes on to Fastify as if the door were not there.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { type RequestFacts, requestFacts, type TrustProxy } from './lib/request-facts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The front door's figures (null: the public pages are off). */
    frontDoor: { answered(): number } | null;
  }
}

/** Answers the request and returns true, or returns false having written nothing. */
export type FrontAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface FrontDoor {
  /** Fastify's `serverFactory`: the HTTP server, its timeouts as Fastify would set them. */
  serverFactory: FastifyServerFactory;
  /** A raw request's ip, protocol and host as Fastify reads them under the app's `trustProxy`. */
  facts: RequestFacts;
  open(answer: FrontAnswer): void;
  /** Requests answered at the door so far (the tests tell the two ways apart by it). */
  readonly answered: number;
  /** From now on every request goes to Fastify (which answers 503 while the app closes). */
  close(): void;
}

/** The part of Fastify's resolved options its HTTP server is made from. */
interface ResolvedOptions {
  http?: http.ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
}

export function frontDoor(trustProxy: TrustProxy | undefined): FrontDoor {
  let answer: FrontAnswer | null = null;
  let answered = 0;
  return {
    facts: requestFacts(trustProxy),
    get answered() {
      return answered;
    },
    open(next) {
      answer = next;
    },
    close() {
      answer = null;
    },
    serverFactory: (handler, resolved) => {
      const options = resolved as unknown as ResolvedOptions;
      const server = http.createServer(options.http ?? {}, (request, response) => {
        if (answer?.(request, response)) {
          answered++;
          return;
        }
        handler(request, response);
      });
      // What Fastify's own factory sets (fastify/lib/server.js), from its options as it resolved them.
      server.keepAliveTimeout = options.keepAliveTimeout;
      server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout);
      return server;
    },
  };
}
