import { createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readFile, readdir, rm, rmdir, stat, rename, unlink, copyFile, writeFile, constants } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from './object-store.js';
import { DEFAULT_TYPE, RESERVED, SPOOL_FILE, checkKey, checkPrefix, checkPresign, checkRange, metered, resolveRange } from './object-rules.js';

/** Bytes per read of a local object: large results stream at disk speed rather than at 64 KiB system calls. */
const READ_CHUNK = 1024 * 1024;

const PROBE_BODY = Buffer.from('ok');
/** The object the health check copies: kept between checks, made again when it is missing. */
export const HEALTH_PROBE = '.health-probe';

/**
 * The local directory's round trip: a kept probe object copied to a new name, and the copy removed. The copy reads
 * an object and writes a new file with its bytes in one file system call (what `get` and `put` ask of the disk),
 * the removal is `delete`'s, so /health polls cost two calls on the I/O threads rather than the five of writing,
 * reading back and removing a file of its own. A probe that has gone (the directory cleaned by hand) is written
 * again; a directory that has gone or refuses new files fails the check.
 */
async function pingDir(dir: string): Promise<void> {
  const probe = path.join(dir, HEALTH_PROBE);
  const copy = path.join(dir, `.health-${randomUUID()}`);
  try {
    await copyFile(probe, copy, constants.COPYFILE_EXCL);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await writeFile(probe, PROBE_BODY, { mode: 0o600 });
    await copyFile(probe, copy, constants.COPYFILE_EXCL);
  }
  await unlink(copy);
}

const isMissing = (e: unknown) => ['ENOENT', 'EISDIR', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '');

/**
 * Removes a spool file after a failed write. A directory that refused the write may refuse this too: the write's
 * error is the one to report, and the start-up sweep removes the file later.
 */
const discard = (tmp: string) => rm(tmp, { force: true }).catch(() => undefined);

/** `rm --force` of one file: refused where unlink is refused, rather than retried as a directory (which rm does). */
async function unlinkIfPresent(file: string): Promise<void> {
  await unlink(file).catch((e: unknown) => {
    if (!isMissing(e)) throw e;
  });
}

async function waitClosed(stream: Writable): Promise<void> {
  if (!stream.closed) await new Promise((resolve) => stream.once('close', resolve));
}

/** Spool files are swept when untouched for this long, unless the configuration says otherwise. */
const DEFAULT_SPOOL_MAX_AGE_MS = 2 * 3600 * 1000;

/**
 * Removes the spool files under `dir` (SPOOL_FILE: objects being written, left behind by a process that was killed
 * mid-write) last modified more than `maxAgeMs` ago. Younger ones may belong to a transfer of another process
 * sharing the directory, which keeps writing to its file until its deadline, so they stay. Returns what it removed.
 */
export async function sweepSpoolFiles(dir: string, maxAgeMs: number, now = Date.now()): Promise<{ files: number; bytes: number }> {
  const swept = { files: 0, bytes: 0 };
  const walk = async (abs: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = path.join(abs, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && SPOOL_FILE.test(entry.name)) {
        const stats = await lstat(child).catch(() => null);
        if (!stats || now - stats.mtimeMs <= maxAgeMs) continue;
        // Another process may sweep the same file at the same moment: gone is as good as removed.
        if (await unlink(child).then(() => true, () => false)) {
          swept.files++;
          swept.bytes += stats.size;
        }
      }
    }
  };
  await walk(dir);
  return swept;
}

/**
 * Objects as files under `dir`, each with its content type in a `.content-type` file beside it. Opening it sweeps
 * stale spool files (sweepSpoolFiles, `spoolMaxAgeMs`) in the background; close waits for the sweep.
 */
export async function openLocal(dir: string, opts: { spoolMaxAgeMs?: number } = {}): Promise<ObjectStore> {
  await mkdir(dir, { recursive: true });
  // A directory that refuses the sweep refuses writes too; the calls that fail say so, and /health reports it.
  const sweeping = sweepSpoolFiles(dir, opts.spoolMaxAgeMs ?? DEFAULT_SPOOL_MAX_AGE_MS).catch(() => undefined);
  const file = (key: string) => path.join(dir, checkKey(key));
  const meta = (key: string) => `${file(key)}.content-type`;
  const tmpFor = (target: string) => `${target}.${randomUUID()}.tmp`;

  /** Makes room for `key` and returns its path. */
  async function prepare(key: string): Promise<string> {
    const target = file(key);
    await mkdir(path.dirname(target), { recursive: true });
    return target;
  }

  // Write then rename, so a reader never sees half an object or half a content type.
  async function writeMeta(key: string, contentType: string): Promise<void> {
    const tmp = tmpFor(meta(key));
    try {
      await writeFile(tmp, contentType);
      await rename(tmp, meta(key));
    } catch (e) {
      await discard(tmp);
      throw e;
    }
  }

  const readMeta = (key: string) => readFile(meta(key), 'utf8').catch(() => DEFAULT_TYPE);

  async function remove(key: string): Promise<void> {
    await unlinkIfPresent(file(key));
    await unlinkIfPresent(meta(key));
  }

  async function collect(abs: string, rel: string, prefix: string, out: string[]): Promise<void> {
    const entries = await readdir(abs, { withFileTypes: true }).catch((e: unknown) => {
      if (isMissing(e)) return [];
      throw e;
    });
    for (const entry of entries) {
      const key = rel + entry.name;
      if (entry.isDirectory()) {
        if (`${key}/`.startsWith(prefix)) await collect(path.join(abs, entry.name), `${key}/`, prefix, out);
      } else if (entry.isFile() && key.startsWith(prefix) && !RESERVED.test(key)) {
        out.push(key);
      }
    }
  }

  async function list(prefix: string): Promise<string[]> {
    const base = checkPrefix(prefix).slice(0, prefix.lastIndexOf('/') + 1);
    const keys: string[] = [];
    await collect(path.join(dir, base), base, prefix, keys);
    return keys.sort();
  }

  /** Removes the directories left empty under `abs`, and `abs` itself when empty. */
  async function prune(abs: string): Promise<void> {
    const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) await prune(path.join(abs, entry.name));
    await rmdir(abs).catch(() => {});
  }

  const store: Omit<ObjectStore, 'ping'> = {
    kind: 'local',
    async put(key, body, contentType = DEFAULT_TYPE) {
      const target = await prepare(key);
      const tmp = tmpFor(target);
      try {
        await writeFile(tmp, body);
        await writeMeta(key, contentType);
        await rename(tmp, target);
      } catch (e) {
        await discard(tmp);
        throw e;
      }
    },
    async get(key) {
      try {
        const body = await readFile(file(key));
        return { body, contentType: await readMeta(key) };
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async exists(key) {
      return stat(file(key)).then((s) => s.isFile(), () => false);
    },
    delete: remove,
    async putStream(key, body, opts = {}) {
      const target = await prepare(key);
      const tmp = tmpFor(target);
      const out = createWriteStream(tmp, { flags: 'wx' });
      try {
        const result = await metered(body, opts, (data) => pipeline(data, out));
        await writeMeta(key, opts.contentType ?? DEFAULT_TYPE);
        await rename(tmp, target);
        return result;
      } catch (e) {
        out.destroy();
        // The file may still be opening: removed before that, it would come back.
        await waitClosed(out);
        await discard(tmp);
        throw e;
      }
    },
    async getStream(key, range) {
      checkRange(range);
      const handle = await open(file(key), 'r').catch((e: unknown) => {
        if (isMissing(e)) return null;
        throw e;
      });
      if (!handle) return null;
      try {
        // Sized from the open file, so a concurrent replacement cannot mix two versions.
        const stats = await handle.stat();
        if (!stats.isFile()) {
          await handle.close();
          return null;
        }
        const bounds = resolveRange(range, stats.size);
        const contentType = await readMeta(key);
        if (stats.size === 0) {
          await handle.close();
          return { body: Readable.from([]), size: 0, contentType };
        }
        return { body: handle.createReadStream({ start: bounds?.start ?? 0, end: bounds?.end, highWaterMark: READ_CHUNK }), size: stats.size, contentType };
      } catch (e) {
        await handle.close();
        throw e;
      }
    },
    async head(key) {
      const stats = await stat(file(key)).catch((e: unknown) => {
        if (isMissing(e)) return null;
        throw e;
      });
      if (!stats?.isFile()) return null;
      return { size: stats.size, contentType: await readMeta(key) };
    },
    list,
    async deletePrefix(prefix) {
      const keys = await list(checkPrefix(prefix, true));
      for (let i = 0; i < keys.length; i += 32) await Promise.all(keys.slice(i, i + 32).map(remove));
      await prune(path.join(dir, prefix));
      return keys.length;
    },
    async copy(fromKey, toKey) {
      const source = file(fromKey);
      checkKey(toKey);
      if (!(await store.head(fromKey))) return false;
      const contentType = await readMeta(fromKey);
      const target = await prepare(toKey);
      const tmp = tmpFor(target);
      try {
        // A reflink where the file system has them: no bytes move.
        await copyFile(source, tmp, constants.COPYFILE_FICLONE);
        await writeMeta(toKey, contentType);
        await rename(tmp, target);
        return true;
      } catch (e) {
        await discard(tmp);
        if (isMissing(e)) return false;
        throw e;
      }
    },
    async presignedGetUrl(key, opts) {
      checkKey(key);
      checkPresign(opts);
      return null;
    },
    async close() {
      await sweeping;
    },
  };
  return { ...store, ping: () => pingDir(dir) };
}
