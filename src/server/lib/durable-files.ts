// Files that survive a power cut once written: the bytes are flushed to the disk before the name
// appears (write beside, fsync, rename), and the folder that holds the name is flushed too — a rename is
// a change to the folder, lost with the page cache like any other (docs/verification/power-cut.md).
import fs from 'node:fs';
import path from 'node:path';

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
  const handle = await fs.promises.open(temporary, 'w', mode);
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
  const fd = fs.openSync(temporary, 'w', mode);
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
