import { describe, expect, it } from 'vitest';
import { warmUploadCheck } from './routes';

describe("the upload check's warm-up (the server awaits it before it listens)", () => {
  it("passes every kind's template through the upload's own check, which would refuse a wrong header", async () => {
    // A throw here stops the server's start: each template must be a file the import takes.
    await expect(warmUploadCheck(1)).resolves.toBeUndefined();
  });
});
