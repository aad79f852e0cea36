// npm run import -- FILE --kind products [--valid-only] [--preview]
// Imports a CSV file the way the admin's Import page does (docs/import-export.md): the same check, the
// same preview, then one transaction (all or nothing, or the valid rows only with --valid-only); every
// change is in the audit log, by "npm run import". --preview stops after the preview.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseEnv } from '../src/server/env';
import { decodeFile } from '../src/server/modules/transfer/csv';
import { importRunStore } from '../src/server/modules/transfer/runs';
import { openConfiguredDatabase } from '../src/server/start';
import { IMPORT_KINDS, type ImportKind, type ImportRun } from '../src/shared/transfer';
import { CliError, runCli } from './cli';

const ACTOR = { id: null, email: 'npm run import' };

await runCli(async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { kind: { type: 'string' }, 'valid-only': { type: 'boolean' }, preview: { type: 'boolean' } },
  });
  const file = positionals[0];
  if (!file) throw new CliError(`Give the file: npm run import -- FILE --kind ${IMPORT_KINDS.join('|')}`);
  const kind = values.kind as ImportKind;
  if (!IMPORT_KINDS.includes(kind))
    throw new CliError('Give the kind: --kind shops, products, offers, events or synonyms');
  let text: string;
  try {
    text = decodeFile(await readFile(file));
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }

  const env = parseEnv();
  const opened = await openConfiguredDatabase(env, console, { demoData: false });
  try {
    const runs = importRunStore(
      opened.db,
      () => new Date(),
      env.MALL_IMPORT_LEASE_S,
      opened.workerConnection,
      env.MALL_TIMEZONE,
    );
    const settle = async (run: ImportRun, what: string): Promise<ImportRun> => {
      let last = '';
      for (;;) {
        const now = await runs.get(run.id);
        if (now.status !== 'checking' && now.status !== 'running') return now;
        const line = `${what}: ${now.rowsChecked.toLocaleString()} of about ${now.rowsTotal.toLocaleString()} rows checked`;
        if (line !== last) console.log(line);
        last = line;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };
    // This process's only import: a place is free whenever it asks.
    const place = () => {
      const ticket = runs.reserve();
      if (!ticket) throw new CliError('No place for an import');
      return ticket;
    };
    const started = await runs.start(ACTOR, kind, path.basename(file), text, place());
    const previewed = await settle(started, 'Checking');
    if (previewed.status === 'failed')
      throw new CliError(previewed.result?.error ?? 'The file could not be checked');
    const preview = previewed.preview;
    if (!preview) throw new CliError('No preview');
    const c = preview.counts;
    console.log(
      `Preview: ${c.created} to create, ${c.updated} to update, ${c.unchanged} unchanged, ${c.refused} refused`,
    );
    for (const row of preview.refused.slice(0, 20))
      for (const error of row.errors) console.log(`  line ${row.line}, ${error.column}: ${error.message}`);
    if (preview.refused.length > 20) console.log(`  … and ${c.refused - 20} more refused rows`);
    if (preview.newCategories.length > 0) console.log(`New categories: ${preview.newCategories.join(', ')}`);
    if (preview.newFloors.length > 0) console.log(`New floors: ${preview.newFloors.join(', ')}`);
    if (values.preview) return;
    const confirmed = await runs
      .confirm(ACTOR, previewed.id, values['valid-only'] === true, place())
      .catch((error) => {
        throw new CliError(error instanceof Error ? error.message : String(error));
      });
    const done = await settle(confirmed, 'Importing');
    if (done.status !== 'done')
      throw new CliError(done.result?.error ?? 'The import failed; nothing was written');
    const r = done.result?.counts;
    console.log(
      `Imported ${path.basename(file)}: ${r?.created} created, ${r?.updated} updated, ${r?.unchanged} unchanged, ${r?.refused} refused rows left out (run ${done.id})`,
    );
  } finally {
    await opened.close();
  }
});
