import type { FastifyBaseLogger } from 'fastify';
import type { Viewer } from '../auth/viewer.js';
import { BadInput } from '../errors.js';
import type { Caller } from './job-kind.js';

/** An account's type and verification as stored now, or null when it no longer exists (the identity subgraph's). */
export type AccountStanding = (accountId: string) => Promise<Pick<Viewer, 'accountType' | 'verified'> | null>;

/**
 * The job owner as a caller, from their account as it stands when the job runs: an account deleted or demoted since
 * the job was submitted no longer reads what it could (the access decisions run again for every attempt).
 */
export async function ownerContext(standingOf: AccountStanding, ownerId: string, jobId: string, log: FastifyBaseLogger): Promise<Caller> {
  const standing = await standingOf(ownerId);
  if (!standing) throw new BadInput('the account that submitted this job no longer exists');
  return { viewer: { id: ownerId, ...standing, tokenId: `job:${jobId}` }, log };
}
