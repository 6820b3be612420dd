import type { FastifyBaseLogger } from 'fastify';
import type { TokenVerifier } from '../../../lib/auth/viewer.js';
import { BadInput } from '../../../lib/errors.js';
import type { Caller } from '../syql.service.js';

/**
 * The job owner as a caller, from their account as it stands when the job runs: an account deleted or demoted since
 * the job was submitted no longer reads what it could (the access decisions run again for every attempt).
 */
export async function ownerContext(verifier: TokenVerifier, ownerId: string, jobId: string, log: FastifyBaseLogger): Promise<Caller> {
  const standing = await verifier.currentStanding?.(ownerId);
  if (!standing) throw new BadInput('the account that submitted this job no longer exists');
  return { viewer: { id: ownerId, ...standing, tokenId: `job:${jobId}` }, log };
}
