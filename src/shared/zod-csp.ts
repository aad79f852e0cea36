import { config } from 'zod/v4/core';

// In the browser, zod probes whether `new Function` is allowed when it builds its first object schema;
// our CSP (script-src 'self', no 'unsafe-eval') blocks the probe and the browser reports a violation.
// Jitless parsing never probes, and forms are far too small for the JIT to matter. Every schema module
// imports this first, so it runs before any schema is built. The server keeps zod's JIT.
if ('document' in globalThis) config({ jitless: true });
