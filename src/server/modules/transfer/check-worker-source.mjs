// Worker entry when the server runs from its TypeScript sources (tests, `npm run dev`, the CLI): teach
// this thread TypeScript, then run the real worker. The production build bundles check-worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./check-worker.ts');
