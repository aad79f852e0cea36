import { asc, eq, sql } from 'drizzle-orm';
import type { Synonym, SynonymInput } from '../../../shared/insights';
import type { Db } from '../../db/client';
import { searchSynonyms } from '../../db/schema';
import { HttpError } from '../../errors';
import { pgError, UNIQUE_VIOLATION } from '../../lib/db-errors';
import type { Executor, Snapshot, WriteTx } from '../../write-path';
import { searchKey } from '../search/vocabulary';

export const synonymNotFound = () => new HttpError(404, 'NOT_FOUND', 'This synonym does not exist');
export const SYNONYM_TAKEN = 'This term has a synonym already';
const NO_WORD = 'Use at least one letter or digit';

/** The same term twice (any case or accents: the stored term is folded). */
export function synonymWriteError(error: unknown): HttpError | null {
  const cause = pgError(error);
  if (cause?.code === UNIQUE_VIOLATION && cause.constraint === 'search_synonyms_term_key')
    return new HttpError(409, 'DUPLICATE', SYNONYM_TAKEN, { term: SYNONYM_TAKEN });
  return null;
}

/** Both sides folded as a search is (searchKey): what is stored is what search compares. */
export function synonymKeys(input: { term: string; replacement: string }): {
  term: string;
  replacement: string;
} {
  const term = searchKey(input.term);
  const replacement = searchKey(input.replacement);
  const fields: Record<string, string> = {};
  if (!term) fields.term = NO_WORD;
  if (!replacement) fields.replacement = NO_WORD;
  if (term && term === replacement) fields.replacement = 'Searched as must differ from the term';
  const first = Object.values(fields)[0];
  if (first) throw new HttpError(400, 'VALIDATION', first, fields);
  return { term, replacement };
}

const toSynonym = (row: typeof searchSynonyms.$inferSelect): Synonym => ({
  id: row.id,
  term: row.term,
  replacement: row.replacement,
  createdAt: row.createdAt.toISOString(),
});

export const synonymName = (synonym: Pick<Synonym, 'term'>) => synonym.term;
export const synonymSnapshot = (synonym: Synonym): Snapshot => ({
  term: synonym.term,
  replacement: synonym.replacement,
});

export function synonymRepository(db: Db) {
  return {
    async list(tx: Executor = db): Promise<Synonym[]> {
      const rows = await tx.select().from(searchSynonyms).orderBy(asc(searchSynonyms.term));
      return rows.map(toSynonym);
    },
    /** term → replacement, for search (read once per catalogue version: a change raises it). */
    async map(tx: Executor = db): Promise<Map<string, string>> {
      const rows = await tx.execute<{ term: string; replacement: string }>(
        sql`select term, replacement from search_synonyms`,
      );
      return new Map(rows.rows.map((row) => [row.term, row.replacement]));
    },
    async insert(tx: WriteTx, input: SynonymInput): Promise<Synonym> {
      const [row] = await tx.insert(searchSynonyms).values(synonymKeys(input)).returning();
      if (!row) throw new Error('insert returned no row');
      return toSynonym(row);
    },
    async delete(tx: WriteTx, id: string): Promise<Synonym | null> {
      const [row] = await tx.delete(searchSynonyms).where(eq(searchSynonyms.id, id)).returning();
      return row ? toSynonym(row) : null;
    },
  };
}
