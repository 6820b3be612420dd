import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What a download token grants: one object, until `expiresAt`, saved as `filename`. */
export interface DownloadGrant {
  key: string;
  /** Whole seconds: a token never outlives the time it was signed for. */
  expiresAt: Date;
  filename?: string;
  /**
   * The caller the URL was issued to (`remote`: a person of another cluster of the federation). The download is
   * answered only while they may still read every one of `reads`.
   */
  issuedTo?: { id: string; remote: boolean };
  /** The dataset versions whose data the object holds or was computed from. */
  reads?: DataRead[];
}

/** One dataset version's data: a published version, or the draft (which only those who may change it read). */
export interface DataRead {
  datasetId: string;
  version: number;
  draft: boolean;
}

export type DownloadVerification = { ok: true; grant: DownloadGrant } | { ok: false; reason: 'expired' | 'invalid' };

export interface DownloadSigner {
  /** A URL-safe token: base64url(payload) '.' base64url(HMAC-SHA256). */
  sign(grant: DownloadGrant): string;
  /** `expired` only for a token this secret signed; anything altered, truncated or foreign is `invalid`. */
  verify(token: string, now: Date): DownloadVerification;
}

export const DOWNLOAD_KEY_FILE = 'download-url.key';
const SECRET_BYTES = 32;
// Bound to this use, so a MAC made with the same secret for anything else never verifies as a download.
const CONTEXT = 'download-url.v1.';
const B64URL = /^[A-Za-z0-9_-]+$/;
const MAX_TOKEN_CHARS = 4096;

interface Payload {
  k: string;
  e: number;
  f?: string;
  /** issued to: account id */
  u?: string;
  /** 1 when `u` is a person of another cluster */
  o?: 1;
  /** reads: `datasetId@version`, `@draft` after the version number for a draft */
  d?: string[];
}

const READ = /^([^@]{1,200})@(\d{1,9})(@draft)?$/;

/** Signs and verifies download tokens with `secret` (at least 32 bytes). */
export function createDownloadSigner(secret: Uint8Array): DownloadSigner {
  if (secret.length < SECRET_BYTES) throw new Error(`a download signing secret needs at least ${SECRET_BYTES} bytes`);
  const key = Buffer.from(secret);
  const mac = (payload: string) => createHmac('sha256', key).update(CONTEXT + payload).digest('base64url');

  return {
    sign({ key: objectKey, expiresAt, filename, issuedTo, reads }) {
      const e = Math.floor(expiresAt.getTime() / 1000);
      if (!Number.isSafeInteger(e)) throw new RangeError('expiresAt is not a valid date');
      const payload: Payload = {
        k: objectKey,
        e,
        ...(filename !== undefined && { f: filename }),
        ...(issuedTo !== undefined && { u: issuedTo.id, ...(issuedTo.remote && { o: 1 as const }) }),
        ...(reads !== undefined && { d: reads.map((r) => `${r.datasetId}@${r.version}${r.draft ? '@draft' : ''}`) }),
      };
      const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${encoded}.${mac(encoded)}`;
    },
    verify(token, now) {
      const invalid = { ok: false, reason: 'invalid' } as const;
      if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return invalid;
      const parts = token.split('.');
      if (parts.length !== 2 || !B64URL.test(parts[0]) || !B64URL.test(parts[1])) return invalid;
      const [encoded, given] = parts;
      // Compared as encoded text, so a second spelling of the same MAC bytes is refused too.
      const expected = Buffer.from(mac(encoded));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return invalid;
      const payload = parsePayload(Buffer.from(encoded, 'base64url').toString('utf8'));
      if (!payload) return invalid;
      const expiresAt = new Date(payload.e * 1000);
      if (now.getTime() >= expiresAt.getTime()) return { ok: false, reason: 'expired' };
      const grant: DownloadGrant = { key: payload.k, expiresAt };
      if (payload.f !== undefined) grant.filename = payload.f;
      if (payload.u !== undefined) grant.issuedTo = { id: payload.u, remote: payload.o === 1 };
      if (payload.d !== undefined) {
        grant.reads = payload.d.map((text) => {
          const m = READ.exec(text)!;
          return { datasetId: m[1], version: Number(m[2]), draft: Boolean(m[3]) };
        });
      }
      return { ok: true, grant };
    },
  };
}

function parsePayload(text: string): Payload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const p = value as Partial<Payload> | null;
  const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
  if (typeof p !== 'object' || p === null || typeof p.k !== 'string' || !Number.isSafeInteger(p.e)) return undefined;
  if (!optionalString(p.f) || !optionalString(p.u) || (p.o !== undefined && p.o !== 1)) return undefined;
  if (p.d !== undefined && !(Array.isArray(p.d) && p.d.every((r) => typeof r === 'string' && READ.test(r)))) return undefined;
  return p as Payload;
}

/**
 * The secret that signs download URLs, kept at `<DATA_DIR>/keys/download-url.key` (base64url, mode 0600) beside
 * the token keys, so URLs survive a restart and every replica sharing DATA_DIR accepts the others' URLs. Made on
 * first use: written whole to a private name, then linked into place, so concurrent first starts agree on one
 * secret and none reads a half-written file.
 */
export async function loadDownloadSigningSecret(dataDir: string): Promise<Uint8Array> {
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, DOWNLOAD_KEY_FILE);
  const existing = await readSecret(file);
  if (existing) return existing;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(SECRET_BYTES);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, `${secret.toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    await link(tmp, file);
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const winner = await readSecret(file);
    if (!winner) throw new Error(`${file} vanished while it was being created`);
    return winner;
  } finally {
    await rm(tmp, { force: true });
  }
}

async function readSecret(file: string): Promise<Uint8Array | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const trimmed = text.trim();
  const secret = Buffer.from(trimmed, 'base64url');
  if (!B64URL.test(trimmed) || secret.length !== SECRET_BYTES) {
    throw new Error(`${file} does not hold a ${SECRET_BYTES}-byte base64url secret; remove it to make a new one (download URLs already handed out stop working)`);
  }
  return secret;
}

/** The signer of this install's download URLs: its secret in DATA_DIR/keys, made on first use. */
export async function openDownloadSigner(dataDir: string): Promise<DownloadSigner> {
  return createDownloadSigner(await loadDownloadSigningSecret(dataDir));
}
