import { z } from 'zod';
import type { RateLimits } from './rate-limits';

export const DEFAULT_RATE_LIMITS: RateLimits = {
  apiPerMinute: 1200,
  signInPerMinute: 60,
  registerPerHour: 100,
};
export const DEFAULT_MAX_DB_QUEUE = 500;
export const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 1000;

const onOff = z.enum(['on', 'off'], { error: 'must be on or off' });
/** on/off, also written 1/0 or true/false. */
const flag = z
  .enum(['on', 'off', '1', '0', 'true', 'false'], { error: 'must be on or off' })
  .transform((value) => ['on', '1', 'true'].includes(value));

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
  MALL_RATE_LIMIT_API: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.apiPerMinute),
  MALL_RATE_LIMIT_SIGNIN: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.signInPerMinute),
  MALL_RATE_LIMIT_REGISTER: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.registerPerHour),
  /**
   * Whose X-Forwarded-For to believe: unset (nobody: the peer's address counts), `true` (any proxy),
   * or the proxies' addresses/CIDRs such as `127.0.0.1,10.0.0.0/8`.
   */
  MALL_TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) => {
      if (value === undefined || value === 'false') return false;
      if (value === 'true') return true;
      return value;
    }),
  /**
   * The public directory (docs/decisions/034): `/shops`, `/shops/{slug}`, `/offers`, `/floors`, `/search`
   * server-rendered for anyone, the sitemap, and anonymous reads of the directory's API. `off`: those
   * pages answer 404, the directory's API needs a sign-in again, and robots.txt disallows everything.
   */
  MALL_PUBLIC_DIRECTORY: flag.default(true),
  /** Directory reads cached in memory and answered with ETag / 304 (see read-cache.ts). */
  MALL_READ_CACHE: flag.default(true),
  /** Signed-in people and the catalogue version kept in memory, revoked by notifications (decision 027). */
  MALL_SESSION_CACHE: flag.default(true),
  /** Turn requests away with 503 when this many queries wait for a database connection. */
  MALL_MAX_DB_QUEUE: z.coerce.number().int().min(1).default(DEFAULT_MAX_DB_QUEUE),
  /** Turn requests away with 503 while the event loop lags more than this (ms); 0 = never. */
  MALL_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(DEFAULT_MAX_EVENT_LOOP_DELAY_MS),
  /**
   * Connections open at once; more are closed as they arrive. Unset: what the file-descriptor limit
   * leaves room for (server-limits.ts).
   */
  MALL_MAX_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  /**
   * Seconds an import run's lease lasts (decision 022): a run checking or running whose server has not
   * renewed it for this long was interrupted and is marked failed.
   */
  MALL_IMPORT_LEASE_S: z.coerce.number().int().min(1).default(60),
  /**
   * Insights (docs/decisions/035): what shoppers look at and search for, counted in memory and added to
   * the database every MALL_INSIGHTS_FLUSH_MS. `off`: nothing is counted (hits are still answered 204).
   */
  MALL_INSIGHTS: flag.default(true),
  /** Milliseconds between two flushes of the counts: the most a killed server (SIGKILL) loses. */
  MALL_INSIGHTS_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** The benchmark's extra routes (npm run bench); never needed in production. */
  MALL_BENCH_ROUTES: flag.default(false),
  /**
   * The cost of new password hashes (auth/passwords.ts): `owasp`, or `fast-for-tests` for test runs only
   * (the server warns at start). A sign-in under `owasp` hashes a cheaper stored password again.
   */
  MALL_PASSWORD_HASHING: z.enum(['owasp', 'fast-for-tests']).default('owasp'),
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

/** The per-address limits, or undefined when MALL_RATE_LIMIT=off (the sign-in lockout stays either way). */
export function rateLimitsFrom(env: Env): RateLimits | undefined {
  if (env.MALL_RATE_LIMIT === 'off') return undefined;
  return {
    apiPerMinute: env.MALL_RATE_LIMIT_API,
    signInPerMinute: env.MALL_RATE_LIMIT_SIGNIN,
    registerPerHour: env.MALL_RATE_LIMIT_REGISTER,
  };
}
