import { z } from 'zod';

const onOff = z.enum(['on', 'off'], { error: 'must be on or off' });

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The operating contract of product-decisions.md §3, parsed once at start-up: bad values stop the server. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  MALL_DATA_DIR: z.string().min(1).default('./data'),
  MALL_DEMO_DATA: onOff.optional(),
  MALL_ADMIN_INVITE_CODE: z
    .string()
    .trim()
    .min(8, 'must be at least 8 characters (it makes anyone who knows it an admin)')
    .optional(),
  MALL_TIMEZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Kolkata')
    .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
  MALL_RATE_LIMIT: onOff.default('on'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = EnvSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return result.data;
}
