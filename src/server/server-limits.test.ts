// The connection cap's default, from the process's file-descriptor limit; and the client-error answer
// that Node's HTTP server calls from socket events and timers, which must never throw.
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { answerClientError } from './errors';
import {
  defaultMaxConnections,
  FALLBACK_MAX_CONNECTIONS,
  MAX_CONNECTIONS_CEILING,
  MIN_DEFAULT_CONNECTIONS,
  maxConnectionsFor,
  parseOpenFilesLimit,
  RESERVED_DESCRIPTORS,
} from './server-limits';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

describe('the connection cap', () => {
  it('reads the soft limit on open files from /proc/self/limits', () => {
    expect(parseOpenFilesLimit(LIMITS)).toBe(1024);
    expect(parseOpenFilesLimit(LIMITS.replace('1024     ', 'unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(parseOpenFilesLimit('Max cpu time   unlimited   unlimited   seconds\n')).toBeUndefined();
    expect(parseOpenFilesLimit('')).toBeUndefined();
  });

  it('leaves room for the descriptors in use and a reserve, within a floor and a ceiling', () => {
    expect(maxConnectionsFor(1024, 40)).toBe(1024 - 40 - RESERVED_DESCRIPTORS);
    expect(maxConnectionsFor(512, 170)).toBe(512 - 170 - RESERVED_DESCRIPTORS);
    expect(maxConnectionsFor(256, 170)).toBe(MIN_DEFAULT_CONNECTIONS);
    expect(maxConnectionsFor(1_048_576, 40)).toBe(MAX_CONNECTIONS_CEILING);
    expect(maxConnectionsFor(Number.POSITIVE_INFINITY, 40)).toBe(MAX_CONNECTIONS_CEILING);
    expect(maxConnectionsFor(undefined, 40)).toBe(FALLBACK_MAX_CONNECTIONS);
  });

  it("derives this process's default from its own limit", () => {
    const cap = defaultMaxConnections();
    expect(cap).toBeGreaterThanOrEqual(MIN_DEFAULT_CONNECTIONS);
    expect(cap).toBeLessThanOrEqual(MAX_CONNECTIONS_CEILING);
  });
});

/** A stand-in socket: records what is done to it; `fail` makes every call throw. */
function fakeSocket(state: {
  writable?: boolean;
  destroyed?: boolean;
  headersSent?: boolean;
  ended?: boolean;
  fail?: boolean;
}) {
  const calls: string[] = [];
  const act = (name: string) => () => {
    calls.push(name);
    if (state.fail) throw new Error(`${name} failed`);
  };
  const socket = {
    writable: state.writable ?? true,
    writableEnded: state.ended ?? false,
    destroyed: state.destroyed ?? false,
    _httpMessage: state.headersSent === undefined ? null : { headersSent: state.headersSent },
    end: (data: string) => {
      act('end')();
      calls.push(data);
    },
    destroy: act('destroy'),
    destroySoon: act('destroySoon'),
  };
  return { socket: socket as unknown as Socket, calls };
}

const error = (code: string) => Object.assign(new Error(code), { code });

describe('the client-error answer', () => {
  it('writes a whole response in our error body, then closes', () => {
    const { socket, calls } = fakeSocket({});
    answerClientError(error('HPE_HEADER_OVERFLOW'), socket);
    expect(calls[0]).toBe('end');
    const response = calls[1] ?? '';
    expect(response.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n')).toBe(true);
    const body = response.slice(response.indexOf('\r\n\r\n') + 4);
    expect(response).toContain(`\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`);
    expect(response).toContain('\r\nConnection: close\r\n');
    expect(JSON.parse(body)).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String) } });
    expect(calls[2]).toBe('destroySoon');
  });

  it('only destroys the socket when there is no one to answer or a response is under way', () => {
    for (const [state, code] of [
      [{}, 'ECONNRESET'],
      [{}, 'EPIPE'],
      [{ writable: false }, 'ERR_HTTP_REQUEST_TIMEOUT'],
      [{ headersSent: true }, 'ERR_HTTP_REQUEST_TIMEOUT'],
    ] as const) {
      const { socket, calls } = fakeSocket(state);
      answerClientError(error(code), socket);
      expect(calls).toEqual(['destroy']);
    }
  });

  it('answers once: a later error on the same socket only closes it once the answer is sent', () => {
    const { socket, calls } = fakeSocket({ ended: true });
    answerClientError(error('HPE_HEADER_OVERFLOW'), socket);
    expect(calls).toEqual(['destroySoon']);
  });

  it('never throws, whatever the socket does', () => {
    for (const code of [
      'HPE_HEADER_OVERFLOW',
      'ERR_HTTP_REQUEST_TIMEOUT',
      'ECONNRESET',
      'HPE_INVALID_METHOD',
    ]) {
      const { socket } = fakeSocket({ fail: true });
      expect(() => answerClientError(error(code), socket)).not.toThrow();
    }
    expect(() => answerClientError(new Error('no code'), fakeSocket({ fail: true }).socket)).not.toThrow();
  });
});
