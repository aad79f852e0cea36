// npm run seed:large — loads the large mall (30 categories, 8 floors, 2,000 shops, 20,000 offers,
// 200,000 products, 300 events) into the configured database: DATABASE_URL, or the embedded one in MALL_DATA_DIR
// while no server is using it. Only into an empty mall; all or nothing (one transaction). Shops and
// products share 24 generated pictures (logos, covers, photos), so pages and benches carry images.
import cliProgress from 'cli-progress';
import { countDirectory } from '../src/server/db/demo-data';
import { renderLargeMallPictures } from '../src/server/db/demo-images';
import {
  LARGE_MALL,
  LARGE_MALL_TABLES,
  LargeMallNotEmptyError,
  loadLargeMall,
} from '../src/server/db/large-mall';
import { parseEnv } from '../src/server/env';
import { mallToday } from '../src/server/lib/mall-time';
import { imageStoreFor } from '../src/server/modules/images/store';
import { openConfiguredDatabase } from '../src/server/start';
import { CliError, runCli } from './cli';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

await runCli(async () => {
  const started = performance.now();
  const env = parseEnv();
  const opened = await openConfiguredDatabase(env, console, { demoData: false });
  try {
    const existing = await countDirectory(opened.db);
    if (existing > 0) {
      throw new CliError(
        `This mall already has data (${existing} shops, categories and floors in all); the large mall is loaded only into an empty one.`,
      );
    }
    const today = mallToday(env.MALL_TIMEZONE);
    const where = opened.kind === 'embedded' ? `embedded database in ${env.MALL_DATA_DIR}` : 'PostgreSQL';
    console.log(`Loading the large mall into the ${where} (today is ${today} in ${env.MALL_TIMEZONE})…`);

    // A bar per table on a terminal; one line per finished table otherwise (CI logs, pipes).
    const tty = Boolean(process.stderr.isTTY);
    const bars = tty
      ? new cliProgress.MultiBar(
          { format: ' {table} {bar} {value}/{total} rows', hideCursor: true, etaBuffer: 5 },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
    const width = Math.max(...LARGE_MALL_TABLES.map((table) => table.length));
    const tableBars = new Map(
      LARGE_MALL_TABLES.map((table) => [
        table,
        bars?.create(LARGE_MALL[table], 0, { table: table.padEnd(width) }),
      ]),
    );
    // A few generated pictures shared by every shop and product (issue 16), drawn before the load.
    const picturesStarted = performance.now();
    const pictures = await renderLargeMallPictures(imageStoreFor(opened, env.MALL_DATA_DIR));
    if (!tty) console.log(`  pictures drawn in ${seconds(performance.now() - picturesStarted)}`);
    const loadStarted = performance.now();
    const tableTimes: string[] = [];
    let tableStarted = loadStarted;
    let summary: typeof LARGE_MALL;
    try {
      summary = await loadLargeMall(
        opened.db,
        today,
        ({ table, done, total }) => {
          tableBars.get(table)?.update(done);
          if (done === 0) tableStarted = performance.now();
          if (done === total) {
            const line = `${table} ${total} rows in ${seconds(performance.now() - tableStarted)}`;
            tableTimes.push(line);
            if (!tty) console.log(`  ${line}`);
          }
        },
        LARGE_MALL,
        pictures,
      );
    } catch (error) {
      if (error instanceof LargeMallNotEmptyError) throw new CliError(error.message);
      throw error;
    } finally {
      bars?.stop();
    }
    const loadMs = performance.now() - loadStarted;
    console.log(
      `Loaded the large mall: ${summary.categories} categories, ${summary.floors} floors, ${summary.shops} shops, ` +
        `${summary.offers} offers, ${summary.products} products, ${summary.events} events in ${seconds(loadMs)} ` +
        `(${seconds(performance.now() - started)} with opening the database and its migrations).`,
    );
    if (tty) console.log(`  ${tableTimes.join('; ')}; then vacuum and analyze.`);
  } finally {
    await opened.close();
  }
});
