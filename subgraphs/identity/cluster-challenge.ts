import { InspectFooter, PublicProtocol } from 'paseto';
import { ImportPublicKeyFactory, SignFactory, VerifyFactory } from 'paseto/v4/public';
import type { Clock } from '../../lib/clock.js';
import { paserkPublicId, type PaserkPublic, type SigningKey } from './token.keys.js';

const k4 = new PublicProtocol(SignFactory, VerifyFactory, ImportPublicKeyFactory);

/**
 * Bound into every challenge signature and into no access token: a signed challenge can never pass as an access
 * token, nor an access token as a signed challenge.
 */
const ASSERTION = new TextEncoder().encode('neurodata federation challenge v1');
const CHALLENGE_TTL_SEC = 120;

export interface ChallengeClaims {
  /** The random value the verifying cluster sent. */
  nonce: string;
  /** The base URL of the cluster that asked (the hub), as it said. */
  audience: string;
  /** This cluster's name. */
  cluster: string;
}

/** Signs a verifying cluster's challenge with this instance's token key, proving it holds the key. */
export async function signChallenge(key: SigningKey, clock: Clock, claims: ChallengeClaims): Promise<string> {
  const footer = new TextEncoder().encode(JSON.stringify({ kid: key.kid }));
  return k4.Sign(key.key, { purpose: 'federation-challenge', ...claims }, { footer, now: clock.now(), expiresIn: CHALLENGE_TTL_SEC, implicitAssertion: ASSERTION });
}

/**
 * Checks a signed challenge against the keys a cluster registered: the key its footer names must be one of them,
 * the signature and expiry must hold and the claims must echo the nonce and audience. Returns the problem, or null.
 */
export async function challengeProblem(token: string, registeredKeys: readonly string[], clock: Clock, expected: { nonce: string; audience: string }): Promise<string | null> {
  let kid: unknown;
  try {
    kid = JSON.parse(new TextDecoder().decode(InspectFooter(token))).kid;
  } catch {
    return 'the signed challenge names no key';
  }
  const paserk = registeredKeys.find((p) => paserkPublicId(p as PaserkPublic) === kid);
  if (!paserk) return 'the challenge was signed with a key the cluster did not register';
  try {
    const key = await k4.ImportPublicKey(paserk as PaserkPublic);
    const { claims } = await k4.Verify(key, token, { now: clock.now(), clockTolerance: 30, implicitAssertion: ASSERTION, requiredClaims: ['exp'] });
    if (claims.purpose !== 'federation-challenge' || claims.nonce !== expected.nonce) return 'the signed challenge does not carry the nonce sent';
    if (claims.audience !== expected.audience) return `the challenge was signed for ${String(claims.audience)}, not for this cluster`;
    return null;
  } catch (e) {
    return `the challenge signature does not verify with the registered key (${(e as Error).message})`;
  }
}
