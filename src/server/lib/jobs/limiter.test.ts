import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors';
import { RETRY_AFTER_SECONDS } from '../../overload';
import { JobLimiter, placeOrBusy } from './limiter';

const busy = () => new HttpError(503, 'JOBS_BUSY', 'Two jobs run already');

/** A reply that records its headers. */
function reply() {
  const headers: Record<string, string> = {};
  return {
    headers,
    header(name: string, value: string) {
      headers[name] = value;
      return this;
    },
  };
}

describe('JobLimiter', () => {
  it('gives `atOnce` places and refuses the next at once; a place turned in is free again, once', () => {
    const limiter = new JobLimiter(2);
    const first = limiter.reserve();
    const second = limiter.reserve();
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(limiter.running).toBe(2);
    expect(limiter.reserve()).toBeNull();
    first?.release();
    first?.release();
    expect(limiter.running).toBe(1);
    const third = limiter.reserve();
    expect(third).not.toBeNull();
    expect(limiter.reserve()).toBeNull();
    second?.release();
    third?.release();
    expect(limiter.running).toBe(0);
  });
});

describe('placeOrBusy', () => {
  it('answers a free place, and sets nothing on the reply', () => {
    const limiter = new JobLimiter(1);
    const answer = reply();
    const ticket = placeOrBusy(limiter, answer, busy);
    expect(limiter.running).toBe(1);
    expect(answer.headers).toEqual({});
    ticket.release();
  });

  it('when every place is taken, throws the module’s own 503 with Retry-After on the reply', () => {
    const limiter = new JobLimiter(1);
    const taken = limiter.reserve();
    const answer = reply();
    let thrown: unknown;
    try {
      placeOrBusy(limiter, answer, busy);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect(thrown).toMatchObject({ statusCode: 503, code: 'JOBS_BUSY', message: 'Two jobs run already' });
    expect(answer.headers).toEqual({ 'retry-after': String(RETRY_AFTER_SECONDS) });
    expect(limiter.running).toBe(1);
    taken?.release();
  });
});
