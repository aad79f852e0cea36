// The front door (docs/decisions/045): the HTTP server's first look at a request, before Fastify's. One
// answerer may be opened on it (the kept public pages, plugins/public-pages.ts); it answers what it can
// and says so, and every other request goes on to Fastify as if the door were not there. (Not Fastify's
// `serverFactory`: with one, Fastify binds only the first of `localhost`'s addresses and closes
// connections another way.)
import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
  /**
   * Puts the door in front of Fastify's handler on the HTTP server Fastify made (its one 'request'
   * listener): Fastify keeps making and closing its server as it always does.
   */
  mount(server: http.Server): void;
  /** A raw request's ip, protocol and host as Fastify reads them under the app's `trustProxy`. */
  facts: RequestFacts;
  /** `onError`: told of an answerer that threw (the request then goes on to Fastify, or is ended). */
  open(answer: FrontAnswer, onError: (error: unknown) => void): void;
  /** Requests answered at the door so far (the tests tell the two ways apart by it). */
  readonly answered: number;
  /** From now on every request goes to Fastify (which answers 503 while the app closes). */
  close(): void;
}

export function frontDoor(trustProxy: TrustProxy | undefined): FrontDoor {
  let answer: FrontAnswer | null = null;
  let reportError: (error: unknown) => void = () => undefined;
  let answered = 0;
  return {
    facts: requestFacts(trustProxy),
    get answered() {
      return answered;
    },
    open(next, onError) {
      answer = next;
      reportError = onError;
    },
    close() {
      answer = null;
    },
    mount(server) {
      const listeners = server.listeners('request') as ((
        request: IncomingMessage,
        response: ServerResponse,
      ) => void)[];
      const fastify = listeners[0];
      if (!fastify || listeners.length !== 1)
        throw new Error(`expected Fastify's one 'request' listener on its server, found ${listeners.length}`);
      server.removeListener('request', fastify);
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        if (answer) {
          try {
            if (answer(request, response)) {
              answered++;
              return;
            }
          } catch (error) {
            // A fault of the door's: the routed way answers (a 500 at worst, logged), unless the door had
            // begun its answer, which is then cut off rather than sent twice.
            reportError(error);
            if (response.headersSent) return void response.destroy();
          }
        }
        fastify(request, response);
      });
    },
  };
}
