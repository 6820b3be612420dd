import { PublicProtocol } from 'paseto';
import { ImportPublicKeyFactory } from 'paseto/v4/public';
import { BadInput } from '../../lib/errors.js';
import { paserkPublicId } from '../identity/index.js';
import { checkBaseUrl, type UrlPolicy } from './outbound/url-policy.js';

const k4 = new PublicProtocol(ImportPublicKeyFactory);

export const CLUSTER_NAME_RULE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_KEYS = 8;

export interface ClusterDetails {
  name: string;
  baseUrl: string;
  contact: string;
  keys: { kid: string; paserk: string }[];
}

/**
 * Checks what a cluster says about itself, whether it registers or a SuperUser adds it: a name, a base URL the
 * URL policy allows, a contact, and its token keys (PASERK k4.public). BadInput names the field.
 */
export async function checkClusterDetails(
  input: { name: string; base_url: string; contact: string; public_keys: string[] },
  policy: UrlPolicy,
): Promise<ClusterDetails> {
  const name = input.name.trim();
  if (!CLUSTER_NAME_RULE.test(name)) throw new BadInput('name: 1-64 letters, digits, ., _ or -, starting with a letter or digit');
  const url = checkBaseUrl(input.base_url.trim(), policy);
  if (!url.ok) throw new BadInput(`base_url: ${url.reason}`);
  const contact = input.contact.trim();
  if (!contact || contact.length > 200) throw new BadInput('contact: an e-mail address or URL of the people who run the cluster (at most 200 characters)');
  if (!input.public_keys.length || input.public_keys.length > MAX_KEYS) throw new BadInput(`public_keys: 1 to ${MAX_KEYS} PASERK k4.public keys (those at <base_url>/v1/user/auth/keys)`);
  const keys: ClusterDetails['keys'] = [];
  for (const [i, raw] of input.public_keys.entries()) {
    const paserk = raw.trim();
    try {
      await k4.ImportPublicKey(paserk as `k4.public.${string}`);
    } catch {
      throw new BadInput(`public_keys[${i}]: not a PASERK k4.public key`);
    }
    const kid = paserkPublicId(paserk as `k4.public.${string}`);
    if (!keys.some((k) => k.kid === kid)) keys.push({ kid, paserk });
  }
  return { name, baseUrl: url.url, contact, keys };
}
