// npm run export -- --kind products [--out FILE]
// Writes the export the admin's Export button downloads (docs/import-export.md): every row of the kind
// as CSV (UTF-8 with a BOM, formulas escaped), read in pages and streamed — to FILE, or to stdout. The
// file reads back with `npm run import` as a run that changes nothing.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { parseEnv } from '../src/server/env';
import { mallToday } from '../src/server/lib/mall-time';
import { exportStream } from '../src/server/modules/transfer/export';
import { openConfiguredDatabase } from '../src/server/start';
import { EXPORT_KINDS, type ExportKind, ExportQuery } from '../src/shared/transfer';
import { CliError, runCli } from './cli';

await runCli(async () => {
  const { values } = parseArgs({ options: { kind: { type: 'string' }, out: { type: 'string' } } });
  const kind = values.kind as ExportKind;
  if (!EXPORT_KINDS.includes(kind))
    throw new CliError(`Give the kind: --kind ${EXPORT_KINDS.join(', ')} (and --out FILE, else stdout)`);
  const env = parseEnv();
  // Progress and notices go to stderr: stdout may be the file.
  const log = { ...console, log: console.error, info: console.error };
  const opened = await openConfiguredDatabase(env, log, { demoData: false });
  try {
    const stream = exportStream(
      opened.db,
      kind,
      // Every row: the list's query with its defaults and no filter.
      ExportQuery[kind].parse({}) as Record<string, unknown>,
      { today: mallToday(env.MALL_TIMEZONE, new Date()), timeZone: env.MALL_TIMEZONE },
    );
    await pipeline(stream, values.out ? createWriteStream(values.out) : process.stdout);
    if (values.out) console.error(`Exported ${kind} to ${values.out}`);
  } finally {
    await opened.close();
  }
});
