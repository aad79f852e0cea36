// A cached body asked for again is worth brotli's best: quality 11 makes a shop page 15% smaller than
// the quality 4 it is first sent at (7.7 KB against 9.1 KB on the demo mall's; bench/public-pages.md),
// but takes about 60 ms, against under 2 ms. So a body is sent at quality 4 the first time and made again
// at quality 11 in libuv's thread pool (off the event loop), one body at a time per process, so the
// upgrade never takes more than one core from the requests (docs/decisions/042).
import zlib from 'node:zlib';

let busy = false;

/**
 * Compresses `body` at brotli quality 11 in the thread pool: resolves the result when it is smaller than
 * `current`, else null. Null at once (nothing started) while another body is being compressed: the caller
 * asks again at the body's next hit.
 */
export function upgradeBrotli(body: Buffer, current: Buffer): Promise<Buffer | null> | null {
  if (busy) return null;
  busy = true;
  return new Promise((resolve) => {
    zlib.brotliCompress(
      body,
      {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      },
      (error, better) => {
        busy = false;
        resolve(!error && better.length < current.length ? better : null);
      },
    );
  });
}
