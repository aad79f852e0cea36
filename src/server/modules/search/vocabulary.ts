// The mall's own words, for typo tolerance: a search word the mall does not have ("samsng") is replaced
// by the nearest word it has ("samsung") before the database is asked (docs/decisions/016).

import { setImmediate as nextTurn } from 'node:timers/promises';

/** Lower case, accents gone — as mall_fold does in the database for the words it stores. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a folded text: runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * A search's text as insights keep it and synonyms match it: folded, its words joined by one space
 * ("  Loo! " → "loo"). Empty when it has no letter or digit.
 */
export function searchKey(text: string): string {
  return wordsOf(fold(text)).join(' ');
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

/** The least share of a typed word's trigrams a correction or a suggestion can have (both bounds imply it). */
const MIN_SHARE = Math.min(CORRECT_AT, SUGGEST_AT);

/** True when the ascending list holds `value` (binary search). */
function sortedHas(list: readonly number[], value: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = list[mid] as number;
    if (at === value) return true;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

const HAS_DIGIT = /\d/;

/** A mall word near a typed one: how alike (pg_trgm's similarity) and the share of the typed word's trigrams it has. */
export interface Near {
  word: string;
  similarity: number;
  share: number;
}

/**
 * True when `near` is a better answer than `best`. Ties: a word like the typed one in having digits or
 * not (a code such as "664fee" is no answer to "kofee" when "coffee" is as near), then the shorter, then
 * the alphabetically first.
 */
function closer(near: Near, best: Near | null, typedDigits: boolean): boolean {
  if (!best || near.similarity > best.similarity) return true;
  if (near.similarity < best.similarity) return false;
  const unlike = HAS_DIGIT.test(near.word) !== typedDigits;
  const bestUnlike = HAS_DIGIT.test(best.word) !== typedDigits;
  if (unlike !== bestUnlike) return !unlike;
  if (near.word.length !== best.word.length) return near.word.length < best.word.length;
  return near.word < best.word;
}
const ASCII_WORD = /^[a-z0-9]{2,}$/;

/** Words added to a vocabulary per turn of the event loop while the server builds one. */
const BUILD_SLICE = 1_000;

export class Vocabulary {
  private readonly words: string[] = [];
  private readonly known = new Set<string>();
  /** How many distinct trigrams each word has (by index): a likeness needs it for every candidate. */
  private sizes = new Uint16Array(1024);
  private readonly byTrigram = new Map<string, number[]>();

  /** A vocabulary of these words, made at once (tests, small malls). */
  constructor(words: Iterable<string> = []) {
    for (const word of words) this.add(word);
  }

  /**
   * The same, a slice of words per turn of the event loop: a mall whose products carry codes has
   * hundreds of thousands of words (400,000 took the thread 1 s at once), and no catalogue change may
   * hold the server for more than a few milliseconds (issue 31).
   */
  static async build(words: Iterable<string>): Promise<Vocabulary> {
    const vocabulary = new Vocabulary();
    let inSlice = 0;
    for (const word of words) {
      vocabulary.add(word);
      if (++inSlice >= BUILD_SLICE) {
        inSlice = 0;
        await nextTurn();
      }
    }
    return vocabulary;
  }

  private add(word: string): void {
    if (word.length < 2 || this.known.has(word)) return;
    const index = this.words.length;
    this.words.push(word);
    this.known.add(word);
    const mine = trigrams(word);
    if (index >= this.sizes.length) {
      const grown = new Uint16Array(this.sizes.length * 2);
      grown.set(this.sizes);
      this.sizes = grown;
    }
    this.sizes[index] = Math.min(mine.size, 65_535);
    for (const t of mine) {
      const list = this.byTrigram.get(t);
      if (list) list.push(index);
      else this.byTrigram.set(t, [index]);
    }
  }

  get size(): number {
    return this.words.length;
  }

  /** A word of the mall, or part of one ("bott" of "bottle"): searched as typed. */
  has(word: string): boolean {
    if (this.known.has(word)) return true;
    // A word inside another has each of its own inner trigrams in it: only the words of its rarest
    // trigram are read (a scan of 400,000 words took some 100 ms a search). Shorter: read them all.
    const chars = [...word];
    if (chars.length < 3) return this.words.some((candidate) => candidate.includes(word));
    let rarest: number[] | undefined;
    for (let i = 0; i + 3 <= chars.length; i++) {
      const list = this.byTrigram.get(chars.slice(i, i + 3).join(''));
      if (!list) return false;
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    return (rarest ?? []).some((index) => (this.words[index] as string).includes(word));
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
   * The mall word nearest to `word` with its similarity and the share of `word`'s trigrams it has,
   * among the words that share at least MIN_SHARE of them (no other word is alike enough to be a
   * correction or a suggestion); null when none does. Ties: a word like the typed one in having digits
   * or not (a code such as "664fee" is no answer to "kofee" when "coffee" is as near), then the shorter,
   * then the alphabetically first.
   */
  nearest(word: string): Near | null {
    const mine = trigrams(word);
    const typedDigits = HAS_DIGIT.test(word);
    // A word sharing k of the m trigrams has one of any m − k + 1 of them: its candidates come from the
    // rarest lists only, and the commonest ("  s", shared by every word starting with s) are only looked
    // up for those — a mall of product codes has lists of 200,000 words.
    const need = Math.max(1, Math.ceil(MIN_SHARE * mine.size - 1e-9));
    const lists = [...mine].map((t) => this.byTrigram.get(t) ?? []).sort((a, b) => a.length - b.length);
    const shared = new Map<number, number>();
    for (const list of lists.slice(0, lists.length - need + 1))
      for (const index of list) shared.set(index, (shared.get(index) ?? 0) + 1);
    for (const list of lists.slice(lists.length - need + 1))
      for (const [index, count] of shared) if (sortedHas(list, index)) shared.set(index, count + 1);
    let best: Near | null = null;
    for (const [index, count] of shared) {
      if (count < need) continue;
      const near: Near = {
        word: this.words[index] ?? '',
        similarity: count / (mine.size + (this.sizes[index] as number) - count),
        share: count / mine.size,
      };
      if (closer(near, best, typedDigits)) best = near;
    }
    return best;
  }

  /** This vocabulary and `more` as one (the mall's words and today's offers'): neither is copied. */
  with(more: Vocabulary): Vocabulary {
    return new Combined(this, more);
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

/** Two vocabularies answering as one: a word of either is known, the nearer of their nearest wins. */
class Combined extends Vocabulary {
  constructor(
    private readonly first: Vocabulary,
    private readonly second: Vocabulary,
  ) {
    super();
  }

  override get size(): number {
    return this.first.size + this.second.size;
  }

  override has(word: string): boolean {
    return this.first.has(word) || this.second.has(word);
  }

  override nearest(word: string): Near | null {
    const a = this.first.nearest(word);
    const b = this.second.nearest(word);
    if (!b) return a;
    return closer(b, a, HAS_DIGIT.test(word)) ? b : a;
  }
}
