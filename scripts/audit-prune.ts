// npm run audit:prune -- --before 2026-01-01
// Removes audit log entries made before the start of that day (the mall's time zone) and records that it
// ran: the only way the append-only log gets shorter (src/server/ops/audit-prune.ts).
import { parseArgs } from 'node:util';
import { parseEnv } from '../src/server/env';
import { pruneAuditLog } from '../src/server/ops/audit-prune';
import { openConfiguredDatabase } from '../src/server/start';
import { calendarDate } from '../src/shared/offer';
import { CliError, runCli } from './cli';

await runCli(async () => {
  const { values } = parseArgs({ options: { before: { type: 'string' } } });
  const before = calendarDate('Give the first day to keep: --before YYYY-MM-DD').safeParse(
    values.before ?? '',
  );
  if (!before.success) throw new CliError(before.error.issues[0]?.message ?? 'Give a date as YYYY-MM-DD');

  const env = parseEnv();
  const opened = await openConfiguredDatabase(env, console, { demoData: false });
  try {
    const removed = await pruneAuditLog(opened.db, before.data, env.MALL_TIMEZONE);
    console.log(
      `Removed ${removed} audit log ${removed === 1 ? 'entry' : 'entries'} made before ${before.data} (${env.MALL_TIMEZONE}); the prune itself is recorded.`,
    );
  } finally {
    await opened.close();
  }
});
