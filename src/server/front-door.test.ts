import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { frontDoor } from './front-door';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A real HTTP server whose one 'request' listener stands for Fastify's, with the door mounted in front. */
async function serve() {
  const routed: string[] = [];
  server = http.createServer((request, response) => {
    routed.push(request.url ?? '');
    response.end('routed');
  });
  const door = frontDoor(false);
  door.mount(server);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text());
  return { door, routed, get };
}

describe('the front door', () => {
  it('sends on to the routed handler whatever its answerer does not answer, and counts what it answers', async () => {
    const { door, routed, get } = await serve();
    expect(await get('/a')).toBe('routed');
    door.open(
      (request, response) => {
        if (request.url !== '/kept') return false;
        response.end('at the door');
        return true;
      },
      () => undefined,
    );
    expect(await get('/kept')).toBe('at the door');
    expect(await get('/other')).toBe('routed');
    expect(door.answered).toBe(1);
    door.close();
    expect(await get('/kept')).toBe('routed');
    expect(routed).toEqual(['/a', '/other', '/kept']);
  });

  it('reports an answerer that throws; the request is routed, or cut off if the door had begun answering', async () => {
    const { door, routed, get } = await serve();
    const reported: unknown[] = [];
    door.open(
      (request, response) => {
        if (request.url === '/begun') response.writeHead(200, { 'content-length': '100' });
        throw new Error(`broken at ${request.url}`);
      },
      (error) => reported.push(error),
    );
    expect(await get('/early')).toBe('routed');
    await expect(get('/begun')).rejects.toThrow();
    expect(reported.map((error) => (error as Error).message)).toEqual([
      'broken at /early',
      'broken at /begun',
    ]);
    expect(routed).toEqual(['/early']);
    expect(door.answered).toBe(0);
  });

  it("refuses a server that has no single 'request' listener to stand in front of", () => {
    expect(() => frontDoor(false).mount(http.createServer())).toThrow(/one 'request' listener/);
  });
});
