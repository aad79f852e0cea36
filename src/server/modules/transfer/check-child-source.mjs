// The check's entry when the server runs from its TypeScript sources (tests, `npm run dev`, the CLI):
// teach this process TypeScript, then run the real check. The production build bundles check-child.ts.
import { register } from 'tsx/esm/api';

register();
await import('./check-child.ts');
