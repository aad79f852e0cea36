// npm run db:migrate — applies pending migrations to the configured database (the server also does this
// at start-up; this is for deployments that migrate as a separate step).
import { parseEnv } from '../src/server/env';
import { openConfiguredDatabase } from '../src/server/start';
import { runCli } from './cli';

await runCli(async () => {
  const opened = await openConfiguredDatabase(parseEnv(), console, { demoData: false });
  await opened.close();
  console.log('The database schema is up to date.');
});
