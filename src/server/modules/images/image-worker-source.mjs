// Worker entry when the server runs from its TypeScript sources (tests, `npm run dev`): teach this
// thread TypeScript, then run the real worker. The production build bundles image-worker.ts instead.
import { register } from 'tsx/esm/api';

register();
await import('./image-worker.ts');
