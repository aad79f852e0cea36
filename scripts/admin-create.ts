// npm run admin:create -- --email boss@example.com [--password …]
// Recovery when no one can sign in as admin: creates an admin account, or makes an existing account an
// admin (and sets its password when one is given). The password may also come from MALL_ADMIN_PASSWORD,
// or is asked for.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { hashPassword } from '../src/server/auth/passwords';
import { parseEnv } from '../src/server/env';
import { createOrPromoteAdmin } from '../src/server/modules/accounts/admin-accounts';
import { openConfiguredDatabase } from '../src/server/start';
import { RegisterInput } from '../src/shared/auth';
import { CliError, runCli } from './cli';

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

await runCli(async () => {
  const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
  const email = values.email ?? (await ask('Email: '));
  const password =
    values.password ?? process.env.MALL_ADMIN_PASSWORD ?? (await ask('Password (6+ characters): '));
  const parsed = RegisterInput.safeParse({ email, password, role: 'admin' });
  if (!parsed.success) throw new CliError(parsed.error.issues.map((issue) => issue.message).join('\n'));

  const env = parseEnv();
  const opened = await openConfiguredDatabase(env, console, { demoData: false });
  try {
    const passwordHash = await hashPassword(parsed.data.password);
    const outcome = await createOrPromoteAdmin(opened.db, parsed.data.email, passwordHash);
    console.log(
      outcome === 'promoted'
        ? `${parsed.data.email} is now an admin, with the new password.`
        : `Created the admin account ${parsed.data.email}.`,
    );
  } finally {
    await opened.close();
  }
});
