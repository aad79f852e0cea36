import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders, securityHeaderWriter } from './security-headers';

// The hook sets a list taken from helmet once (docs/decisions/043): it must be exactly what helmet
// itself writes on a real response, header for header.
describe('securityHeaders', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((request, response) =>
      securityHeaderWriter()(request, response, () => response.end()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is what helmet writes on a real response, no header more or less', async () => {
    const answer = await fetch(url);
    const fromHelmet: Record<string, string> = {};
    const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    answer.headers.forEach((value, name) => {
      if (!transport.has(name)) fromHelmet[name] = value;
    });
    expect(securityHeaders()).toEqual(fromHelmet);
    // the ones docs/security.md promises, among them
    expect(securityHeaders()['x-frame-options']).toBe('DENY');
    expect(securityHeaders()['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('is one frozen list: no request can change what the next one gets', () => {
    expect(securityHeaders()).toBe(securityHeaders());
    expect(Object.isFrozen(securityHeaders())).toBe(true);
  });
});
