// The keys that make category and floor names unique by how they look rather than how they are spelt
// (docs/decisions/011). "ELECTRONICS", "Electronics" + soft hyphen, fullwidth "Ｅlectronics",
// "Electronicѕ" with a Cyrillic dze and "Εlectronics" with a Greek capital epsilon all share a key with
// "Electronics", and a unique index on each key refuses the second of them — under any concurrency.
import { sql } from 'drizzle-orm';
import unhomoglyph from 'unhomoglyph';
import { withoutBlanks } from '../../shared/text';
import { pgError, UNIQUE_VIOLATION } from '../lib/db-errors';
import type { Db } from './client';

export interface PlaceNameKeys {
  /** Case first, then look-alikes: "ELECTRONICS", "Electronicѕ" and "εlectronics" meet here. */
  nameKey: string;
  /**
   * Letters of other scripts first, as written, then case: capitals whose small letters look nothing
   * like the Latin ones (Greek Ε/ε, Cyrillic Н/н, Т/т, М/м) meet the Latin capitals here, so "Н&М" is
   * "H&M" and "ΕLECTRONICS" is "Electronics".
   */
  nameGlyphKey: string;
}

/** A run of white space: a page shows "Food  Court" (or with a tab between) as "Food Court". */
const SPACES = /\s+/gu;
const NOT_ASCII = /\P{ASCII}/gu;
const CAPITAL = /^\p{Lu}$/u;

/**
 * A character's prototype, except that a capital stays a capital I where confusables.txt says "l"
 * (Greek Ι, Cyrillic І and Ӏ): "ΕLECTRONΙCS" must meet "ELECTRONICS" before case is folded.
 */
const prototype = (character: string): string => {
  const found = unhomoglyph(character);
  return found === 'l' && CAPITAL.test(character) ? 'I' : found;
};

/**
 * What shows: the characters that show nothing removed — default-ignorable ones as UTS #39 removes them,
 * and every format character and blank glyph besides (shared/text.ts BLANK: "Food" with a trailing
 * U+2800, U+0600 or U+13430 is "Food") — and each run of white space made one space.
 */
const shown = (text: string): string => withoutBlanks(text).replace(SPACES, ' ').trim();

/**
 * The confusables skeleton of UTS #39: NFD, what shows nothing removed, every character replaced by its
 * prototype in Unicode's confusables.txt (the `unhomoglyph` package's copy of it), NFD again. Not for
 * reading: "m" becomes "rn", "0" becomes "O".
 */
function skeleton(text: string): string {
  return unhomoglyph(shown(text.normalize('NFD'))).normalize('NFD');
}

/**
 * Letters of other scripts replaced by the ones they look like, as written — capitals as capitals — and
 * ASCII left alone (the skeleton's I → l would part "ELECTRONICS" from "Electronics").
 */
function latinLookAlikes(text: string): string {
  return shown(text.normalize('NFD')).replace(NOT_ASCII, prototype).normalize('NFD');
}

/** Case folding as far as JavaScript has it: upper then lower takes ß to ss and ς to σ as well. */
const caseFold = (text: string): string => text.toUpperCase().toLowerCase();

/** Case, then look-alikes, then case again (the skeleton's "0" → "O" must meet "o"). */
const anyCase = (text: string): string => caseFold(skeleton(caseFold(text)));

/**
 * The two keys of a name: NFKC (fullwidth, ligatures, font variants), case folding, what shows nothing
 * removed (soft hyphen, joiners, Hangul fillers, tags, every format character, blank glyphs), white
 * space runs made one space, and the confusables skeleton. Two
 * names collide when either key does. One key cannot do both jobs: "Εlectronics" (Greek capital)
 * must meet "Electronics" before case is folded (ε looks like no e), and "εlectronics" must meet
 * "Εlectronics" after.
 */
export function placeNameKeys(name: string): PlaceNameKeys {
  const text = name.normalize('NFKC');
  return { nameKey: anyCase(text), nameGlyphKey: anyCase(latinLookAlikes(text)) };
}

const PENDING = 'pending:';

/** A name still held apart from another that looks the same, which an admin should rename or delete. */
export interface LookAlikeName {
  table: 'categories' | 'floors';
  id: string;
  name: string;
  /** The older row whose name it looks like. */
  like: { id: string; name: string } | null;
}

type Keyed = { id: string; name: string; name_key: string; name_glyph_key: string };

/**
 * Gives every category and floor the keys of its name. Run at start-up, after the migrations: the
 * migration that added the keys left existing rows pending, and rows written by anything but the server
 * (plain SQL, an older server during a rolling upgrade, a new version of the fold) may hold no keys or
 * keys of another name. Oldest first; a row whose name looks like an older one's keeps a pending key
 * (its name stays, unprotected) and is returned, so that the server can say so: an existing look-alike
 * does not stop the server. Safe with several servers at once: every update checks what it read.
 */
export async function keyPlaceNames(db: Pick<Db, 'execute' | 'transaction'>): Promise<LookAlikeName[]> {
  const lookAlikes: LookAlikeName[] = [];
  for (const table of ['categories', 'floors'] as const) {
    const t = sql.identifier(table);
    const { rows } = await db.execute<Keyed>(
      sql`select id, name, name_key, name_glyph_key from ${t} order by created_at, id`,
    );
    const stale = rows
      .map((row) => ({ row, keys: placeNameKeys(row.name) }))
      .filter(({ row, keys }) => row.name_key !== keys.nameKey || row.name_glyph_key !== keys.nameGlyphKey);
    if (stale.length === 0) continue;

    // First free the keys the stale rows hold, so that a row is never refused by a key about to go.
    for (const { row } of stale) {
      if (row.name_key.startsWith(PENDING) && row.name_glyph_key.startsWith(PENDING)) continue;
      await db.execute(sql`
        update ${t} set name_key = ${PENDING} || gen_random_uuid(), name_glyph_key = ${PENDING} || gen_random_uuid()
        where id = ${row.id} and name_key = ${row.name_key} and name_glyph_key = ${row.name_glyph_key}`);
    }
    for (const { row, keys } of stale) {
      try {
        // Its own transaction, or a savepoint inside the caller's: a refused key must not abort the rest.
        await db.transaction((tx) =>
          tx.execute(sql`
            update ${t} set name_key = ${keys.nameKey}, name_glyph_key = ${keys.nameGlyphKey}
            where id = ${row.id} and name = ${row.name} and starts_with(name_key, ${PENDING})`),
        );
      } catch (error) {
        if (pgError(error)?.code !== UNIQUE_VIOLATION) throw error;
        const { rows: like } = await db.execute<{ id: string; name: string }>(sql`
          select id, name from ${t} where name_key = ${keys.nameKey} or name_glyph_key = ${keys.nameGlyphKey}
          limit 1`);
        lookAlikes.push({ table, id: row.id, name: row.name, like: like[0] ?? null });
      }
    }
  }
  return lookAlikes;
}
