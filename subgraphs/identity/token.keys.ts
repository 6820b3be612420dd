import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PublicProtocol } from 'paseto';
import {
  ExportPublicKeyFactory,
  ExportSecretKeyFactory,
  GenerateKeyPairFactory,
  GetPublicKeyFactory,
  ImportPublicKeyFactory,
  ImportSecretKeyFactory,
  type PublicKey,
  type SecretKey,
} from 'paseto/v4/public';
import { blake2b } from '@noble/hashes/blake2.js';
import type { Config } from '../../lib/config.js';

const k4 = new PublicProtocol(
  GenerateKeyPairFactory,
  ExportPublicKeyFactory,
  ExportSecretKeyFactory,
  ImportPublicKeyFactory,
  ImportSecretKeyFactory,
  GetPublicKeyFactory,
);

export type PaserkPublic = `k4.public.${string}`;
export type PaserkSecret = `k4.secret.${string}`;

export interface VerificationKey {
  /** PASERK k4.pid of the public key: what token footers name. */
  kid: string;
  paserk: PaserkPublic;
  key: PublicKey;
  /** True for the key this instance signs with. */
  signing: boolean;
}

export interface SigningKey {
  kid: string;
  key: SecretKey;
}

/** The keys this instance verifies with, by key id. */
export type VerificationKeys = ReadonlyMap<string, VerificationKey>;

export const SECRET_FILE = 'token.k4.secret';
export const PUBLIC_FILE = 'token.k4.public';

/**
 * PASERK k4.pid: `k4.pid.` + base64url(BLAKE2b-264("k4.pid." + paserk)). The paseto package leaves k4 ids to the
 * caller because Web Crypto has no BLAKE2b.
 */
export function paserkPublicId(paserk: PaserkPublic): string {
  const header = 'k4.pid.';
  const digest = blake2b(new TextEncoder().encode(header + paserk), { dkLen: 33 });
  return header + Buffer.from(digest).toString('base64url');
}

const keysDir = (config: Config) => path.join(config.dataDir, 'keys');

/**
 * The signing key: TOKEN_SECRET_KEY when set (required in production), otherwise a key pair kept under
 * `<DATA_DIR>/keys/`, created on first start. Concurrent first starts agree on one key (exclusive create).
 */
async function loadSecretPaserk(config: Config): Promise<PaserkSecret> {
  if (config.auth.tokenSecretKey) return config.auth.tokenSecretKey as PaserkSecret;
  if (config.env === 'production') throw new Error('TOKEN_SECRET_KEY is required in production');
  const dir = keysDir(config);
  const secretFile = path.join(dir, SECRET_FILE);
  const existing = await readFile(secretFile, 'utf8').catch(() => undefined);
  if (existing) return existing.trim() as PaserkSecret;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pair = await k4.GenerateKeyPair({ extractable: true });
  const secret = await k4.ExportSecretKey(pair.secretKey);
  try {
    await writeFile(secretFile, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    await writeFile(path.join(dir, PUBLIC_FILE), `${await k4.ExportPublicKey(pair.publicKey)}\n`, { mode: 0o644 });
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return (await readFile(secretFile, 'utf8')).trim() as PaserkSecret;
  }
}

async function importPublic(paserk: string, source: string): Promise<PublicKey> {
  try {
    return await k4.ImportPublicKey(paserk as PaserkPublic);
  } catch (e) {
    throw new Error(`${source}: not a valid PASERK k4.public key (${(e as Error).message})`);
  }
}

/** Problems with TOKEN_SECRET_KEY and TOKEN_PUBLIC_KEYS, each naming its variable (never the key itself). */
export async function keyConfigProblems(config: Config): Promise<string[]> {
  const problems: string[] = [];
  if (config.auth.tokenSecretKey) {
    await k4.ImportSecretKey(config.auth.tokenSecretKey as PaserkSecret).catch((e: Error) => {
      problems.push(`TOKEN_SECRET_KEY: not a valid PASERK k4.secret key (${e.message})`);
    });
  }
  for (const [i, paserk] of config.auth.tokenPublicKeys.entries()) {
    await k4.ImportPublicKey(paserk as PaserkPublic).catch((e: Error) => {
      problems.push(`TOKEN_PUBLIC_KEYS: entry ${i + 1} is not a valid PASERK k4.public key (${e.message})`);
    });
  }
  return problems;
}

/** The key this instance signs tokens with. */
export async function loadSigningKey(config: Config): Promise<SigningKey> {
  const paserk = await loadSecretPaserk(config);
  let key: SecretKey;
  try {
    key = await k4.ImportSecretKey(paserk);
  } catch (e) {
    throw new Error(`TOKEN_SECRET_KEY: not a valid PASERK k4.secret key (${(e as Error).message})`);
  }
  const publicPaserk = await k4.ExportPublicKey(await k4.GetPublicKey(key));
  return { kid: paserkPublicId(publicPaserk), key };
}

/**
 * Public keys only: the signing key's public half, read from TOKEN_SECRET_KEY or `<DATA_DIR>/keys/`, plus every
 * TOKEN_PUBLIC_KEYS entry (previous keys during rotation, other instances). Verifying needs nothing else.
 */
export async function loadVerificationKeys(config: Config): Promise<VerificationKeys> {
  const keys = new Map<string, VerificationKey>();
  let own: PaserkPublic | undefined;
  if (config.auth.tokenSecretKey) {
    const secret = await k4.ImportSecretKey(config.auth.tokenSecretKey as PaserkSecret);
    own = await k4.ExportPublicKey(await k4.GetPublicKey(secret));
  } else if (config.env !== 'production') {
    own = (await readFile(path.join(keysDir(config), PUBLIC_FILE), 'utf8').catch(() => undefined))?.trim() as PaserkPublic | undefined;
    if (!own) {
      const secret = await k4.ImportSecretKey(await loadSecretPaserk(config));
      own = await k4.ExportPublicKey(await k4.GetPublicKey(secret));
    }
  }
  if (own) {
    const kid = paserkPublicId(own);
    keys.set(kid, { kid, paserk: own, key: await importPublic(own, `${keysDir(config)}/${PUBLIC_FILE}`), signing: true });
  }
  for (const paserk of config.auth.tokenPublicKeys) {
    const kid = paserkPublicId(paserk as PaserkPublic);
    if (keys.has(kid)) continue;
    keys.set(kid, { kid, paserk: paserk as PaserkPublic, key: await importPublic(paserk, 'TOKEN_PUBLIC_KEYS'), signing: false });
  }
  return keys;
}
