// Files that survive a power cut once written: the bytes are flushed to the disk before the name
// appears (write beside, fsync, rename), and the folder that holds the name is flushed too — a rename is
// a change to the folder, lost with the page cache like any other (docs/verification/power-cut.md).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Flags of a temporary file: made new, never through a link planted at its (predictable) name — the
 * folder may belong to the database's user, and this process may be root.
 */
const NEW_FILE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

/** Opens `file` as a new file; one left by a crash (or planted) is removed first, once. */
async function openNew(file: string, mode: number): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, NEW_FILE, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await fs.promises.unlink(file);
    return fs.promises.open(file, NEW_FILE, mode);
  }
}

function openNewSync(file: string, mode: number): number {
  try {
    return fs.openSync(file, NEW_FILE, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    fs.unlinkSync(file);
    return fs.openSync(file, NEW_FILE, mode);
  }
}

/** Flushes a folder's entries (the names created, renamed or removed in it). */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function syncFolderNow(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `file` whole or not at all, and durably: a temporary file beside it is written and flushed,
 * then renamed over it. The caller flushes the folder (`syncFolder`) once its files are all in place.
 */
export async function writeFileDurably(file: string, bytes: Uint8Array, mode = 0o644): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await openNew(temporary, mode);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(temporary, file);
}

/** The same, synchronously, with the folder flushed too (start-up's few small files). */
export function writeFileDurablySync(file: string, text: string, mode = 0o644): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openNewSync(temporary, mode);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  syncFolderNow(path.dirname(file));
}

/**
 * Makes `dir` and any missing parents down from `root`, flushing each folder a new name appeared in,
 * so that a new folder is not lost with its parent's page cache.
 */
export async function makeFoldersDurably(root: string, dir: string): Promise<void> {
  const relative = path.relative(root, dir);
  let current = root;
  for (const part of relative.split(path.sep).filter(Boolean)) {
    const next = path.join(current, part);
    try {
      await fs.promises.mkdir(next);
      await syncFolder(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    current = next;
  }
}
