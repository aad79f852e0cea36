import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_MESSAGES } from '../../../shared/errors';
import { HttpError } from '../../errors';
import { freeVariants, type ImageWorkers, imageWorkers } from './image-workers';
import { contentHash, processImage } from './pipeline';

const pools: ImageWorkers[] = [];
const pool = (...args: Parameters<typeof imageWorkers>) => {
  const made = imageWorkers(...args);
  pools.push(made);
  return made;
};
afterEach(async () => {
  for (const made of pools.splice(0)) await made.close();
});

/** A worker script of a few lines, for the failures the real one should never have. */
const standIn = (code: string) => new URL(`data:text/javascript,${encodeURIComponent(code)}`);
const CRASHES_AT_END = standIn(`
  import { parentPort } from 'node:worker_threads';
  parentPort.on('message', (message) => { if (message.type === 'end') process.exit(3); });
`);
const NEVER_ANSWERS = standIn(`
  import { parentPort } from 'node:worker_threads';
  parentPort.on('message', () => {});
`);

/** A photo-like JPEG (noise does not compress: several hundred KB). */
async function noisyJpeg(width = 800, height = 600): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** `file` in pieces of `size` bytes, each the whole of its own memory (as the HTTP parser hands them). */
function ownPieces(file: Buffer, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < file.length; start += size)
    pieces.push(new Uint8Array(file.subarray(start, start + size)));
  return pieces;
}

describe('image workers', () => {
  it('give the same image as processImage on this thread, moving whole pieces and copying views', async () => {
    const workers = pool(2);
    const file = await noisyJpeg();
    const job = await workers.begin();
    const pieces = ownPieces(file, 64 * 1024);
    // One piece that is a view into a larger buffer: copied, and left as it was.
    const shared = Buffer.concat([Buffer.from('not part of the file'), file.subarray(0, 10)]);
    const view = shared.subarray(shared.length - 10);
    job.push(view);
    const rest = ownPieces(file.subarray(10), 64 * 1024);
    for (const piece of rest) job.push(piece);
    const image = await job.finish();
    expect(view.byteLength).toBe(10);
    expect(shared.subarray(0, 20).toString()).toBe('not part of the file');
    // The whole pieces were moved to the worker (detached here), not copied.
    expect(rest.every((piece) => piece.byteLength === 0)).toBe(true);
    expect(pieces.length).toBeGreaterThan(3);

    const here = await processImage(file);
    expect(image.key).toBe(here.key);
    expect(image.key.startsWith(`${await contentHash(file)}-`)).toBe(true);
    expect(image.variants.map((variant) => variant.name)).toEqual(
      here.variants.map((variant) => variant.name),
    );
    for (const variant of image.variants) {
      expect(Buffer.isBuffer(variant.bytes)).toBe(true);
      const metadata = await sharp(variant.bytes).metadata();
      const [width, format] = variant.name.split('.');
      // Never enlarged: the 800-px photo's "1200" variants are 800 px wide.
      expect(metadata.width, variant.name).toBe(Math.min(Number(width), 800));
      expect(metadata.format, variant.name).toBe(format === 'avif' ? 'heif' : format);
    }
    expect(workers.threads).toBe(1);
  });

  it('refuse what processImage refuses, with the same status, code and words', async () => {
    const workers = pool(1);
    const job = await workers.begin();
    job.push(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'));
    const refusal = await job.finish().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({
      statusCode: 422,
      code: 'INVALID_IMAGE',
      message: IMAGE_MESSAGES.notAnImage,
    });
    // The worker is free again.
    const next = await workers.begin();
    next.push(await noisyJpeg(64, 64));
    expect((await next.finish()).width).toBe(64);
    expect(workers.threads).toBe(1);
  });

  it('forget an aborted upload and take the next one on the same thread', async () => {
    const workers = pool(1);
    const file = await noisyJpeg(200, 150);
    const aborted = await workers.begin();
    aborted.push(new Uint8Array(file.subarray(0, 1000)));
    aborted.abort();
    const job = await workers.begin();
    job.push(file);
    expect((await job.finish()).key).toBe((await processImage(file)).key);
    expect(workers.threads).toBe(1);
  });

  it('wait for a free worker when all are busy, never starting more than their number', async () => {
    const workers = pool(1);
    const first = await workers.begin();
    let secondStarted = false;
    const second = workers.begin().then((job) => {
      secondStarted = true;
      return job;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(secondStarted).toBe(false);
    first.push(await noisyJpeg(64, 64));
    await first.finish();
    const job = await second;
    job.push(await noisyJpeg(32, 32));
    expect((await job.finish()).width).toBe(32);
    expect(workers.threads).toBe(1);
  });

  it('turn a crashed worker into a failure (a 500, not a hang) and start a new one for the next upload', async () => {
    const crashing = pool(1, { entry: CRASHES_AT_END });
    const job = await crashing.begin();
    job.push(Buffer.from('anything'));
    const failure = await job.finish().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(HttpError);
    expect((failure as Error).message).toMatch(/image worker stopped.*exit code 3/);
    expect(crashing.threads).toBe(0);
    // Pieces pushed to a dead worker go nowhere; the next upload gets a new thread.
    const again = await crashing.begin();
    expect(crashing.threads).toBe(1);
    again.abort();
  });

  it('stop a worker that does not answer in time, and fail its upload', async () => {
    const hanging = pool(1, { entry: NEVER_ANSWERS, timeoutMs: 200 });
    const job = await hanging.begin();
    job.push(Buffer.from('anything'));
    const started = Date.now();
    const failure = await job.finish().catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((failure as Error).message).toMatch(/no answer within 0.2 s/);
    expect(hanging.threads).toBe(0);
  });

  it('close stops every thread, fails an upload in flight and refuses new ones (503)', async () => {
    const workers = pool(2, { entry: NEVER_ANSWERS });
    const [a, b] = await Promise.all([workers.begin(), workers.begin()]);
    expect(workers.threads).toBe(2);
    b?.abort();
    a?.push(Buffer.from('anything'));
    const inFlight = a?.finish().catch((error: unknown) => error);
    await workers.close();
    expect(workers.threads).toBe(0);
    expect(await inFlight).toBeInstanceOf(Error);
    await expect(workers.begin()).rejects.toMatchObject({ statusCode: 503, code: 'OVERLOADED' });
  });

  it('free stored variants at once: memory of their own is detached, views into other memory are left', async () => {
    const workers = pool(1);
    const job = await workers.begin();
    job.push(await noisyJpeg(320, 240));
    const image = await job.finish();
    const shared = Buffer.from('a buffer someone else still reads');
    image.variants.push({ name: 'view', contentType: 'image/webp', bytes: shared.subarray(2, 8) });
    freeVariants(image);
    const [view, ...own] = [...image.variants].reverse();
    expect(own.length).toBe(6);
    expect(own.every((variant) => variant.bytes.byteLength === 0)).toBe(true);
    expect(view?.bytes.toString()).toBe('buffer');
    expect(shared.toString()).toBe('a buffer someone else still reads');
  });
});
