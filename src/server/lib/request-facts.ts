// A raw request's client address, protocol and host exactly as Fastify reads them under the app's
// `trustProxy` (fastify/lib/request.js): for the answers given before Fastify sees a request (the kept
// public pages, docs/decisions/045), which must count a visitor in the same rate-limit bucket and name
// the same origin as the routed answer would. request-facts.test.ts checks every fact against Fastify's
// own on the same requests, for each kind of MALL_TRUST_PROXY value.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';

export type TrustProxy = boolean | string;

export interface RequestFacts {
  /** request.ip */
  ip(raw: IncomingMessage): string | undefined;
  /** request.protocol */
  protocol(raw: IncomingMessage): string | undefined;
  /** request.host */
  host(raw: IncomingMessage): string;
}

/** The last of a header's comma-separated values (a proxy appends its own). */
const lastValue = (value: string) => {
  const comma = value.lastIndexOf(',');
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim();
};

const ownHost = (raw: IncomingMessage) => raw.headers.host ?? (raw.headers[':authority'] as string) ?? '';
const ownProtocol = (raw: IncomingMessage) =>
  raw.socket ? ((raw.socket as TLSSocket).encrypted ? 'https' : 'http') : undefined;

export function requestFacts(trustProxy: TrustProxy | undefined): RequestFacts {
  if (!trustProxy) return { ip: (raw) => raw.socket?.remoteAddress, protocol: ownProtocol, host: ownHost };
  const trusts: (address: string, hop: number) => boolean =
    trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(',').map((part) => part.trim()));
  const peerTrusted = (raw: IncomingMessage) =>
    raw.socket != null && trusts(raw.socket.remoteAddress as string, 0);
  return {
    ip(raw) {
      const addresses = proxyAddr.all(raw, trusts);
      return addresses[addresses.length - 1];
    },
    protocol(raw) {
      const forwarded = raw.headers['x-forwarded-proto'];
      if (typeof forwarded === 'string' && forwarded && peerTrusted(raw)) return lastValue(forwarded);
      return ownProtocol(raw);
    },
    host(raw) {
      const forwarded = raw.headers['x-forwarded-host'];
      if (typeof forwarded === 'string' && forwarded && peerTrusted(raw)) return lastValue(forwarded);
      return ownHost(raw);
    },
  };
}
