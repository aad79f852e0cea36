// The mall's own words, for typo tolerance: a search word the mall does not have ("samsng") is replaced
// by the nearest word it has ("samsung") before the database is asked (docs/decisions/016).

/** Lower case, accents gone — as mall_fold does in the database for the words it stores. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a folded text: runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** A word's trigrams as pg_trgm makes them: the word padded with two spaces before and one after. */
export function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const chars = [...padded];
  const out = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) out.add(chars.slice(i, i + 3).join(''));
  return out;
}

/** Shared trigrams over all the trigrams of both (pg_trgm's similarity). */
export function similarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** Replaced by a mall word this alike or more: "samsng" → "samsung" 0.5, "pixl" → "pixel" 0.375. */
export const CORRECT_AT = 0.35;
/** Offered as "Did you mean …?" (not searched) at this share of the typed word's trigrams found: "kofee" → "coffee" 0.33. */
export const SUGGEST_AT = 0.3;

const HAS_DIGIT = /\d/;
const ASCII_WORD = /^[a-z0-9]{2,}$/;

export class Vocabulary {
  private readonly words: string[];
  private readonly known: Set<string>;
  private readonly byTrigram = new Map<string, number[]>();

  constructor(words: Iterable<string>) {
    this.words = [...new Set(words)].filter((word) => word.length >= 2).sort();
    this.known = new Set(this.words);
    this.words.forEach((word, index) => {
      for (const t of trigrams(word)) {
        const list = this.byTrigram.get(t);
        if (list) list.push(index);
        else this.byTrigram.set(t, [index]);
      }
    });
  }

  get size(): number {
    return this.words.length;
  }

  /** A word of the mall, or part of one ("bott" of "bottle"): searched as typed. */
  has(word: string): boolean {
    if (this.known.has(word)) return true;
    return this.words.some((candidate) => candidate.includes(word));
  }

  /**
   * True when no product name or category, and no running offer's title, can contain `word`: it is a
   * word of ASCII letters and digits that no mall word contains. The database splits names into words at
   * anything but ASCII letters and digits (its `[:alnum:]` in the C locale), so such a word inside a name
   * lies inside one of its words, which the vocabulary has. Shops are not covered (their descriptions
   * are searched and are not in the vocabulary), nor is a word of one character or with other letters.
   */
  rulesOut(word: string): boolean {
    return ASCII_WORD.test(word) && !this.has(word);
  }

  /**
   * The mall word nearest to `word` with its similarity and the share of `word`'s trigrams it has;
   * null when none shares a trigram. Ties: a word like the typed one in having digits or not (a code
   * such as "664fee" is no answer to "kofee" when "coffee" is as near), then the shorter, then the
   * alphabetically first.
   */
  nearest(word: string): { word: string; similarity: number; share: number } | null {
    const mine = trigrams(word);
    const typedDigits = HAS_DIGIT.test(word);
    const shared = new Map<number, number>();
    for (const t of mine)
      for (const index of this.byTrigram.get(t) ?? []) shared.set(index, (shared.get(index) ?? 0) + 1);
    let best: { word: string; similarity: number; share: number; unlike: boolean } | null = null;
    for (const [index, count] of shared) {
      const candidate = this.words[index] ?? '';
      const size = trigrams(candidate).size;
      const sim = count / (mine.size + size - count);
      const unlike = HAS_DIGIT.test(candidate) !== typedDigits;
      const better =
        !best ||
        sim > best.similarity ||
        (sim === best.similarity &&
          (best.unlike !== unlike
            ? !unlike
            : candidate.length !== best.word.length
              ? candidate.length < best.word.length
              : candidate < best.word));
      if (better) best = { word: candidate, similarity: sim, share: count / mine.size, unlike };
    }
    return best && { word: best.word, similarity: best.similarity, share: best.share };
  }

  /**
   * The search as the database is asked it: each word the mall does not have replaced by its nearest
   * word when alike enough (CORRECT_AT), else left as typed.
   */
  correct(words: readonly string[]): string[] {
    return words.map((word) => {
      if (this.has(word)) return word;
      const near = this.nearest(word);
      return near && near.similarity >= CORRECT_AT ? near.word : word;
    });
  }

  /** "Did you mean": each unknown word replaced by its nearest at the looser SUGGEST_AT; null when none is. */
  suggest(words: readonly string[]): string | null {
    let changed = false;
    const out = words.map((word) => {
      if (this.has(word)) return word;
      const near = this.nearest(word);
      if (near && near.share >= SUGGEST_AT) {
        changed = true;
        return near.word;
      }
      return word;
    });
    return changed ? out.join(' ') : null;
  }
}
