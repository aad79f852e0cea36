import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestFacts, type TrustProxy } from './request-facts';

// Every MALL_TRUST_PROXY shape (env.ts): nobody, anybody, one address, a list, a CIDR, a named range.
const TRUSTS: TrustProxy[] = [false, true, '127.0.0.1', '10.0.0.1, 127.0.0.1', '10.0.0.0/8', 'loopback'];
const PEERS = ['127.0.0.1', '10.0.0.5', '203.0.113.9', '::1'];
const HEADERS: Record<string, string>[] = [
  {},
  { host: 'mall.example' },
  { host: 'mall.example:8080', 'x-forwarded-for': '198.51.100.7' },
  { 'x-forwarded-for': '198.51.100.7, 10.0.0.9, 10.0.0.1' },
  { 'x-forwarded-for': 'not an address, 198.51.100.7' },
  { 'x-forwarded-proto': 'https' },
  { 'x-forwarded-proto': 'http, https', 'x-forwarded-host': 'a.example, b.example' },
  { 'x-forwarded-host': 'evil.example', 'x-forwarded-for': '203.0.113.1, 127.0.0.1' },
  { 'x-forwarded-proto': '', 'x-forwarded-host': '' },
];

describe('requestFacts: a raw request read as Fastify reads it', () => {
  it.each(TRUSTS.map((trust) => [String(trust), trust] as const))(
    'gives the same ip, protocol and host as Fastify under trustProxy %s, whatever the peer and the X-Forwarded-* headers',
    async (_name, trust) => {
      const facts = requestFacts(trust);
      const app = Fastify({ trustProxy: trust });
      app.get('/', async (request) => ({
        fastify: { ip: request.ip, protocol: request.protocol, host: request.host },
        ours: {
          ip: facts.ip(request.raw),
          protocol: facts.protocol(request.raw),
          host: facts.host(request.raw),
        },
      }));
      let compared = 0;
      for (const remoteAddress of PEERS) {
        for (const headers of HEADERS) {
          const answer = (await app.inject({ method: 'GET', url: '/', remoteAddress, headers })).json();
          expect(answer.ours, JSON.stringify({ trust, remoteAddress, headers })).toEqual(answer.fastify);
          compared++;
        }
      }
      expect(compared).toBe(PEERS.length * HEADERS.length);
      await app.close();
    },
  );

  it('believes X-Forwarded-* only from a trusted peer', async () => {
    const facts = requestFacts('10.0.0.0/8');
    const app = Fastify({ trustProxy: '10.0.0.0/8' });
    app.get('/', async (request) => ({ ip: facts.ip(request.raw), host: facts.host(request.raw) }));
    const headers = {
      host: 'mall.example',
      'x-forwarded-for': '198.51.100.7',
      'x-forwarded-host': 'x.example',
    };
    const fromProxy = (await app.inject({ url: '/', remoteAddress: '10.1.2.3', headers })).json();
    const direct = (await app.inject({ url: '/', remoteAddress: '203.0.113.9', headers })).json();
    expect(fromProxy).toEqual({ ip: '198.51.100.7', host: 'x.example' });
    expect(direct).toEqual({ ip: '203.0.113.9', host: 'mall.example' });
    await app.close();
  });
});
