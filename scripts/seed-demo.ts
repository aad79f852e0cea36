// npm run seed:demo — loads the demo mall into the configured database (DATABASE_URL, or the embedded
// one in MALL_DATA_DIR while no server is using it). Only into an empty mall: it never mixes with real data.
import { countDirectory, loadDemoData } from '../src/server/db/demo-data';
import { parseEnv } from '../src/server/env';
import { mallToday } from '../src/server/lib/mall-time';
import { imageStoreFor } from '../src/server/modules/images/store';
import { openConfiguredDatabase } from '../src/server/start';
import { CliError, runCli } from './cli';

await runCli(async () => {
  const env = parseEnv();
  const opened = await openConfiguredDatabase(env, console, { demoData: false });
  try {
    const existing = await countDirectory(opened.db);
    if (existing > 0) {
      throw new CliError(
        `This mall already has data (${existing} shops, categories and floors in all); the demo mall is loaded only into an empty one.`,
      );
    }
    const images = imageStoreFor(opened, env.MALL_DATA_DIR);
    const summary = await loadDemoData(opened.db, mallToday(env.MALL_TIMEZONE), { images });
    console.log(
      `Loaded the demo mall: ${summary.categories} categories, ${summary.floors} floors, ${summary.shops} shops, ` +
        `${summary.products} products, ${summary.offers} offers, ${summary.events} events.`,
    );
  } finally {
    await opened.close();
  }
});
