import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client';
import { images, imageVariants } from '../../db/schema';
import { makeFoldersDurably, syncFolder, writeFileDurably } from '../../lib/durable-files';
import type { Executor, WriteTx } from '../../write-path';
import type { ProcessedImage } from './pipeline';

/**
 * Where images' variants live (docs/decisions/020), behind one interface:
 * - `files`: under MALL_DATA_DIR/images, for the embedded database (one server owns that folder);
 * - `database`: in the image_variants table, with DATABASE_URL, so every server reads the same ones.
 *
 * The `images` table is the truth in both: an image exists when its row does. A trigger deletes the row
 * once no shop, product or floor refers to it (migration 0013); the variant rows go with it by cascade,
 * the variant files when the server calls `release` after that commit. Writes and releases of one key
 * take turns (`withKey`), so a file is never removed under an upload of the same picture.
 */
export interface ImageStore {
  readonly kind: 'files' | 'database';
  /** Within the write's transaction: the image's row (locked) and its variants. */
  save(tx: WriteTx, image: ProcessedImage): Promise<void>;
  /** A variant's bytes; null when there is no such image or variant. */
  read(key: string, name: string): Promise<Buffer | null>;
  /** After a write that may have dropped the last reference to these keys: removes what is left over. */
  release(keys: readonly (string | null | undefined)[]): Promise<void>;
  /** Removes every stored variant whose image has no row (after a crash, a restore): returns how many. */
  sweep(): Promise<number>;
  /** How many variants are stored (files or rows): the orphan tests count them. */
  count(): Promise<number>;
  /** Runs `work` while no other write or release of `key` runs in this process. */
  withKey<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** Variants already read, by "key/name": immutable bytes, so only memory bounds it (and deletion). */
function variantCache() {
  return new LRUCache<string, Buffer>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (bytes) => bytes.length || 1,
    // A deleted image may be served from another server's memory this long at most.
    ttl: 10 * 60 * 1000,
  });
}

function keyLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return async function withKey<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

/** The image's row, inserted or locked (ON CONFLICT DO UPDATE takes the row lock the trigger waits on). */
async function upsertImageRow(tx: WriteTx, image: ProcessedImage): Promise<void> {
  await tx
    .insert(images)
    .values({ key: image.key, width: image.width, height: image.height })
    .onConflictDoUpdate({ target: images.key, set: { key: sql`excluded.key` } });
}

async function existingKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.select({ key: images.key }).from(images).where(inArray(images.key, keys));
  return new Set(rows.map((row) => row.key));
}

const live = (keys: readonly (string | null | undefined)[]) => [
  ...new Set(keys.filter((key): key is string => typeof key === 'string')),
];

export function databaseImageStore(db: Db): ImageStore {
  const cache = variantCache();
  return {
    kind: 'database',
    withKey: keyLocks(),
    async save(tx, image) {
      await upsertImageRow(tx, image);
      // One statement per variant: pg copies a statement's parameters into a buffer it grows by half
      // again each time, so one statement for all six allocated ~2.5× their bytes on the event loop's
      // heap, where they wait for a full garbage collection (docs/decisions/020); one each, ~1×.
      for (const v of image.variants) {
        await tx
          .insert(imageVariants)
          .values({ imageKey: image.key, name: v.name, bytes: v.bytes })
          .onConflictDoNothing();
      }
    },
    async read(key, name) {
      const cached = cache.get(`${key}/${name}`);
      if (cached) return cached;
      const [row] = await db
        .select({ bytes: imageVariants.bytes })
        .from(imageVariants)
        .where(sql`${imageVariants.imageKey} = ${key} and ${imageVariants.name} = ${name}`);
      if (!row) return null;
      cache.set(`${key}/${name}`, row.bytes);
      return row.bytes;
    },
    async release(keys) {
      // The rows went with their image (cascade); only this server's memory may still hold them.
      const gone = live(keys);
      const still = await existingKeys(db, gone);
      for (const key of gone) if (!still.has(key)) forget(cache, key);
    },
    async sweep() {
      return 0;
    },
    async count() {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(imageVariants);
      return row?.n ?? 0;
    },
  };
}

function forget(cache: LRUCache<string, Buffer>, key: string) {
  for (const cached of [...cache.keys()]) if (cached.startsWith(`${key}/`)) cache.delete(cached);
}

/** Files under `root`: one folder per image, named by its key; one file per variant. */
export function fileImageStore(db: Db, root: string): ImageStore {
  const cache = variantCache();
  const withKey = keyLocks();
  const folder = (key: string) => path.join(root, key.slice(0, 2), key);

  async function removeIfUnused(key: string): Promise<void> {
    await withKey(key, async () => {
      if ((await existingKeys(db, [key])).has(key)) return;
      forget(cache, key);
      await fs.promises.rm(folder(key), { recursive: true, force: true });
    });
  }

  return {
    kind: 'files',
    withKey,
    async save(tx, image) {
      await upsertImageRow(tx, image);
      const dir = folder(image.key);
      await makeFoldersDurably(path.dirname(root), dir);
      // Each file appears whole or not at all, and is on the disk before the row's commit acknowledges
      // the upload (a power cut left rows naming empty files before: docs/verification/power-cut.md).
      await Promise.all(
        image.variants.map((variant) => writeFileDurably(path.join(dir, variant.name), variant.bytes)),
      );
      await syncFolder(dir);
    },
    async read(key, name) {
      const cached = cache.get(`${key}/${name}`);
      if (cached) return cached;
      try {
        const bytes = await fs.promises.readFile(path.join(folder(key), name));
        cache.set(`${key}/${name}`, bytes);
        return bytes;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async release(keys) {
      for (const key of live(keys)) await removeIfUnused(key);
    },
    async sweep() {
      const keys = await listFolders(root);
      let removed = 0;
      for (let start = 0; start < keys.length; start += 500) {
        const batch = keys.slice(start, start + 500);
        const still = await existingKeys(db, batch);
        for (const key of batch) {
          if (still.has(key)) continue;
          removed += (await listFiles(folder(key))).length;
          await removeIfUnused(key);
        }
      }
      return removed;
    },
    async count() {
      let n = 0;
      for (const key of await listFolders(root)) n += (await listFiles(folder(key))).length;
      return n;
    },
  };
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await fs.promises.readdir(dir)).filter((name) => !name.endsWith('.tmp'));
  } catch {
    return [];
  }
}

/** Every image folder under root (root/xx/<key>). */
async function listFolders(root: string): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of await listFiles(root)) keys.push(...(await listFiles(path.join(root, prefix))));
  return keys;
}

/** The store for this database: files beside the embedded one, its own table in PostgreSQL. */
export function imageStoreFor(
  database: { kind: 'embedded' | 'postgres'; db: Db },
  dataDir: string,
): ImageStore {
  return database.kind === 'postgres'
    ? databaseImageStore(database.db)
    : fileImageStore(database.db, path.join(dataDir, 'images'));
}

/** For tests and scripts: does the image's row exist? */
export async function imageExists(db: Executor, key: string): Promise<boolean> {
  const rows = await db.select({ key: images.key }).from(images).where(eq(images.key, key));
  return rows.length > 0;
}
