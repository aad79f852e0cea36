import { EmbeddedStartError } from '../src/server/db/embedded-postgres';
import { EnvError } from '../src/server/env';

/** Runs a command-line task: expected failures print one clear line, anything else its stack. */
export async function runCli(task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (error) {
    const expected =
      error instanceof EnvError || error instanceof EmbeddedStartError || error instanceof CliError;
    console.error(
      expected || !(error instanceof Error) ? String((error as Error).message ?? error) : error.stack,
    );
    process.exitCode = 1;
  }
}

export class CliError extends Error {}
