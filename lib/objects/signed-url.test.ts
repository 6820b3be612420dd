import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync, readdirSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { createDownloadSigner, loadDownloadSigningSecret, DOWNLOAD_KEY_FILE } from './signed-url.js';

const now = new Date('2026-03-01T12:00:00Z');
const inAnHour = new Date('2026-03-01T13:00:00Z');

describe('createDownloadSigner', () => {
  const signer = createDownloadSigner(randomBytes(32));

  it('round-trips a grant through a URL-safe token', () => {
    const grant = {
      key: 'datasets/d1/assets/volume.bin',
      expiresAt: inAnHour,
      filename: 'volume é.bin',
      issuedTo: { id: 'u1', remote: false },
      reads: [{ datasetId: 'd1', version: 2, draft: false }, { datasetId: 'd2', version: 4, draft: true }],
    };
    const token = signer.sign(grant);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(signer.verify(token, now)).toEqual({ ok: true, grant });
    const remote = signer.sign({ key: 'k', expiresAt: inAnHour, issuedTo: { id: 'u2', remote: true }, reads: [] });
    expect(signer.verify(remote, now)).toEqual({ ok: true, grant: { key: 'k', expiresAt: inAnHour, issuedTo: { id: 'u2', remote: true }, reads: [] } });
    const bare = signer.sign({ key: 'results/job.arrow', expiresAt: inAnHour });
    expect(signer.verify(bare, now)).toEqual({ ok: true, grant: { key: 'results/job.arrow', expiresAt: inAnHour } });
  });

  it('refuses a token once it has expired, and not before', () => {
    const token = signer.sign({ key: 'datasets/d1/a.swc', expiresAt: inAnHour });
    expect(signer.verify(token, new Date(inAnHour.getTime() - 1000)).ok).toBe(true);
    expect(signer.verify(token, inAnHour)).toEqual({ ok: false, reason: 'expired' });
    expect(signer.verify(token, new Date('2027-01-01T00:00:00Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a tampered token as invalid', () => {
    const token = signer.sign({ key: 'datasets/d1/a.swc', expiresAt: inAnHour, issuedTo: { id: 'u1', remote: false }, reads: [{ datasetId: 'd1', version: 1, draft: false }] });
    const [payload, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ k: 'datasets/d2/secret.swc', e: Math.floor(inAnHour.getTime() / 1000), u: 'u1', d: ['d2@1'] })).toString('base64url');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const bad of [
      `${forged}.${mac}`,
      `${flip(payload, 3)}.${mac}`,
      `${payload}.${flip(mac, 0)}`,
      `${payload}.${flip(mac, mac.length - 1)}`,
      `${payload}.${mac.slice(0, -1)}`,
      `${payload}.${mac}.x`,
      `${payload}`,
      `${payload}.${mac}=`,
      '',
      'not a token',
    ]) {
      expect(signer.verify(bad, now)).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses a token signed with another secret as invalid, even an expired one', () => {
    const other = createDownloadSigner(randomBytes(32));
    const token = other.sign({ key: 'datasets/d1/a.swc', expiresAt: inAnHour });
    expect(signer.verify(token, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(signer.verify(token, new Date('2027-01-01T00:00:00Z'))).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => createDownloadSigner(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('loadDownloadSigningSecret', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'download-key-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a 32-byte secret once, owner-only, and returns the same one after a restart', async () => {
    const first = await loadDownloadSigningSecret(dataDir);
    expect(first.length).toBe(32);
    const file = path.join(dataDir, 'keys', DOWNLOAD_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(await loadDownloadSigningSecret(dataDir)).equals(Buffer.from(first))).toBe(true);

    const token = createDownloadSigner(first).sign({ key: 'datasets/d1/a.swc', expiresAt: inAnHour });
    expect(createDownloadSigner(await loadDownloadSigningSecret(dataDir)).verify(token, now).ok).toBe(true);
  });

  it('gives replicas starting together on one DATA_DIR the same secret', async () => {
    const secrets = await Promise.all(Array.from({ length: 8 }, () => loadDownloadSigningSecret(dataDir)));
    for (const s of secrets) expect(Buffer.from(s).equals(Buffer.from(secrets[0]))).toBe(true);
    expect(readdirSync(path.join(dataDir, 'keys'))).toEqual([DOWNLOAD_KEY_FILE]);
  });

  it('refuses a damaged key file rather than replacing it', async () => {
    mkdirSync(path.join(dataDir, 'keys'));
    writeFileSync(path.join(dataDir, 'keys', DOWNLOAD_KEY_FILE), 'too-short\n');
    await expect(loadDownloadSigningSecret(dataDir)).rejects.toThrow(/32-byte/);
  });
});
