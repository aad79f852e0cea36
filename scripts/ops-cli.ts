// Command-line plumbing shared by scripts/backup.ts and scripts/restore.ts.
import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { BackupError } from '../src/server/ops/backup';
import { CliError, runCli } from './cli';

/** The options, or exit code 2 with the usage on anything unexpected (and on --help, exit code 0). */
export function parseOptions(
  usage: string,
  options: NonNullable<ParseArgsConfig['options']>,
): Record<string, string | boolean | (string | boolean)[] | undefined> {
  try {
    const { values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    return values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exit(2);
  }
}

/** npm runs scripts in the package's folder; a relative path means the folder npm was run in. */
export function fromCaller(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** runCli, with BackupError as an expected failure (one line, no stack trace, exit code 1). */
export function runOps(task: () => Promise<void>): Promise<void> {
  return runCli(async () => {
    try {
      await task();
    } catch (error) {
      if (error instanceof BackupError) throw new CliError(error.message);
      throw error;
    }
  });
}
