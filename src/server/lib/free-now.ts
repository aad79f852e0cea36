import { MessageChannel } from 'node:worker_threads';

/**
 * Frees these bytes now instead of at the next full collection. A thread that receives much memory from
 * workers (an upload's variants, an import's staged batches) but allocates little JavaScript of its own
 * collects only when that external memory forces a mark-compact, which holds the event loop for tens of
 * milliseconds. Moving a buffer into a message nobody will read (the channel is closed at once) detaches
 * it: the count drops at once and the bytes are freed with the message. Only arrays that are the whole
 * of their buffer are moved (a view into a shared buffer is left to the collector). `arrays` must not be
 * read afterwards.
 */
export function freeNow(arrays: readonly Uint8Array[]): void {
  const buffers: ArrayBuffer[] = [];
  for (const bytes of arrays) if (ownsItsMemory(bytes)) buffers.push(bytes.buffer);
  if (buffers.length === 0) return;
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(null, buffers);
  } catch {
    // Not transferable: left to the garbage collector.
  } finally {
    port1.close();
    port2.close();
  }
}

/** Is `bytes` the whole of an ArrayBuffer (so moving that buffer moves nothing else)? */
export function ownsItsMemory(bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> {
  return (
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength
  );
}
