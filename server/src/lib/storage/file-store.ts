import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What a stored file is known by: the SHA-256 of its bytes (hex), and its length. */
export interface StoredFile {
  sha256: string;
  sizeBytes: number;
}

/**
 * Where packages, documents and images are kept (decision 053): content-addressed by SHA-256, so a
 * file never changes under its name, writing it twice is harmless, and instances that share the
 * store (a shared volume, or an S3-compatible store behind this same interface) agree on it.
 */
export interface FileStore {
  /** Stores the bytes (atomically: a reader never sees half a file) and answers their SHA-256 and size. */
  put(content: Buffer | Readable): Promise<StoredFile>;
  /** The file's size, or null when the store does not hold it. */
  sizeOf(sha256: string): Promise<number | null>;
  /** The bytes from `start` to `end` (inclusive, 0-based), read as they are sent. */
  read(sha256: string, range?: { start: number; end: number }): Readable;
}

const SHA256_PATTERN = /^[0-9a-f]{64}$/;

function checkedName(sha256: string): string {
  if (!SHA256_PATTERN.test(sha256)) throw new Error(`not a SHA-256: ${sha256.slice(0, 80)}`);
  return sha256;
}

/**
 * A folder (STORAGE_DIR): `<sha[0..2]>/<sha>`; a file is written under `tmp/` and renamed into place
 * after it was flushed to disk, so a crash leaves at most an orphan temp file, never a torn one.
 */
export class LocalFileStore implements FileStore {
  constructor(readonly directory: string) {}

  private pathOf(sha256: string): string {
    const name = checkedName(sha256);
    return path.join(this.directory, name.slice(0, 2), name);
  }

  async put(content: Buffer | Readable): Promise<StoredFile> {
    const temporaryDirectory = path.join(this.directory, 'tmp');
    await mkdir(temporaryDirectory, { recursive: true });
    const temporary = path.join(temporaryDirectory, `${randomUUID()}.part`);
    const hash = createHash('sha256');
    let sizeBytes = 0;
    try {
      if (Buffer.isBuffer(content)) {
        hash.update(content);
        sizeBytes = content.length;
        const handle = await open(temporary, 'wx');
        try {
          await handle.writeFile(content);
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        content.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          sizeBytes += chunk.length;
        });
        await pipeline(content, createWriteStream(temporary, { flags: 'wx' }));
        const handle = await open(temporary, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      const sha256 = hash.digest('hex');
      const target = this.pathOf(sha256);
      await mkdir(path.dirname(target), { recursive: true });
      // Same name, same bytes: replacing an existing copy changes nothing a reader could see.
      await rename(temporary, target);
      return { sha256, sizeBytes };
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async sizeOf(sha256: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(sha256))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(sha256), range ? { start: range.start, end: range.end } : {});
  }
}
