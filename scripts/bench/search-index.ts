// npx tsx scripts/bench/search-index.ts [terms] — the mall-wide search with and without the in-memory
// product index (docs/decisions/016), on the large mall (`npm run seed:large` first) in DATABASE_URL or
// in the embedded database in MALL_DATA_DIR (no server using it): the two answers to every term must be
// the same; their times are compared, the two asked in turns so both see the same load. Terms as the
// bench's mall-search row makes them (a third misspelt), plus a few odd ones; every tenth is also asked
// as the products' second page.
//
// With more than 100 matches the database ranks the first 101 a scan meets; PostgreSQL's synchronized
// scans start a sequential scan where the last one stopped, so that set changes from one search to the
// next. The session here turns them off (synchronize_seqscans = off) so that the database's answer is
// the one a scan from the table's start gives, which is the index's.
import { sql } from 'drizzle-orm';
import { openEmbedded, openPostgres } from '../../src/server/db/client';
import { LARGE_MALL_WORDS } from '../../src/server/db/large-mall';
import { searchRepository } from '../../src/server/modules/search/repository';
import { SEARCH_PAGE_SIZE, SEARCH_PREVIEW_SIZE } from '../../src/shared/search';

const count = Number(process.argv[2] ?? 400);
const url = process.env.DATABASE_URL;
const dataDir = process.env.MALL_DATA_DIR;
if (!url && !dataDir) {
  console.error('Set DATABASE_URL or MALL_DATA_DIR (holding the large mall).');
  process.exit(2);
}
// one connection, so that the session setting below holds for every search
const database = url ? await openPostgres(url, 1) : await openEmbedded({ dataDir: `${dataDir}/pgdata` });
const db = database.db;
await db.execute(sql`set synchronize_seqscans = off`);

let seed = 11;
const random = () => {
  seed = (seed * 16_807) % 2_147_483_647;
  return seed / 2_147_483_647;
};
/** One typo, as the bench makes them: a letter dropped, two swapped, one doubled or one replaced. */
function misspell(word: string): string {
  const letters = [...word];
  if (letters.length < 4) return `${word}${word.at(-1)}`;
  const at = 1 + Math.floor(random() * (letters.length - 2));
  const kind = Math.floor(random() * 4);
  const letter = letters[at] as string;
  if (kind === 0) letters.splice(at, 1);
  else if (kind === 1) [letters[at], letters[at + 1]] = [letters[at + 1] ?? '', letter];
  else if (kind === 2) letters.splice(at, 0, letter);
  else letters[at] = String.fromCharCode(((letter.charCodeAt(0) - 96) % 26) + 97);
  return letters.join('');
}
const { adjectives, qualifiers, nouns, models } = LARGE_MALL_WORDS;
const terms = [...adjectives, ...qualifiers, ...nouns, ...models].map((word) => word.toLowerCase());
for (const a of adjectives) for (const n of nouns) terms.push(`${a} ${n}`.toLowerCase());
for (const q of qualifiers) for (const n of nouns) terms.push(`${q} ${n}`.toLowerCase());
for (const a of adjectives) for (const q of qualifiers) terms.push(`${a} ${q}`.toLowerCase());
for (const n of nouns) for (const m of models) terms.push(`${n} ${m}`.toLowerCase());
for (let i = terms.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [terms[i], terms[j]] = [terms[j] as string, terms[i] as string];
}
const odd = [
  'e',
  'a',
  'x',
  'xm',
  'bott',
  'ear',
  'café',
  'mug 2',
  'zanzibar',
  'no such product',
  'Classic Black',
];
const searches = [
  ...odd,
  ...terms.map((term, i) => {
    if (i % 3 !== 2) return term;
    const parts = term.split(' ');
    const which = Math.floor(random() * parts.length);
    parts[which] = misspell(parts[which] as string);
    return parts.join(' ');
  }),
].slice(0, count);

const { rows } = await db.execute<{ v: string }>(sql`select version::text as v from catalog_version`);
const version = rows[0]?.v ?? 'none';
const today = new Date().toISOString().slice(0, 10);
const repositories = { database: searchRepository(db), index: searchRepository(db, { productIndex: true }) };
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage();
const started = performance.now();
const index = await repositories.index.productIndexReady(version);
const buildMs = performance.now() - started;
gc?.();
const after = process.memoryUsage();
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
console.log(
  `${database.kind}: index of ${index?.size ?? 0} products built in ${buildMs.toFixed(0)} ms` +
    (gc
      ? `; heap +${mb(after.heapUsed - before.heapUsed)} MB, array buffers +${mb(after.arrayBuffers - before.arrayBuffers)} MB`
      : ' (node --expose-gc for its memory)'),
);

const times: Record<keyof typeof repositories, number[]> = { database: [], index: [] };
let differing = 0;
for (const [i, q] of searches.entries()) {
  const asks = [{ page: 1, pageSize: SEARCH_PREVIEW_SIZE }];
  if (i % 10 === 0) asks.push({ kind: 'products' as const, page: 2, pageSize: SEARCH_PAGE_SIZE } as never);
  for (const ask of asks) {
    const answers: Record<string, string> = {};
    const order = i % 2 ? (['database', 'index'] as const) : (['index', 'database'] as const);
    for (const name of order) {
      const start = performance.now();
      answers[name] = JSON.stringify(await repositories[name].search(q, { ...ask, today, version }));
      if (!('kind' in ask)) times[name].push(performance.now() - start);
    }
    if (answers.database !== answers.index) {
      differing++;
      console.log(`differs: ${JSON.stringify(q)} ${JSON.stringify(ask)}`);
    }
  }
}
console.log(`${searches.length} searches compared: ${differing} differing answers`);
for (const [name, list] of Object.entries(times)) {
  list.sort((a, b) => a - b);
  const at = (p: number) => (list[Math.min(list.length - 1, Math.floor(list.length * p))] ?? 0).toFixed(2);
  const mean = list.reduce((a, b) => a + b, 0) / list.length;
  console.log(
    `${name.padEnd(8)} mean ${mean.toFixed(2)} ms, p50 ${at(0.5)}, p90 ${at(0.9)}, p95 ${at(0.95)}`,
  );
}
await database.close();
