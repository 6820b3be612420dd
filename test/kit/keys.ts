import { generateKeyPairSync } from 'node:crypto';

/** A fresh Ed25519 key as PASERK k4.secret (seed followed by public key, base64url), for TOKEN_SECRET_KEY. */
export function paserkSecret(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return `k4.secret.${Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64url')}`;
}
