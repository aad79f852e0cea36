import pg from 'pg';

/** The PostgreSQL error behind a failed query (Drizzle wraps it as `cause`), or null. */
export function pgError(error: unknown): pg.DatabaseError | null {
  if (error instanceof pg.DatabaseError) return error;
  if (error instanceof Error && error.cause instanceof pg.DatabaseError) return error.cause;
  return null;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** `%` and `_` typed into a search box are literal characters, not wildcards. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
