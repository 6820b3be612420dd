import { describe, it, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ManualClock } from '../../lib/clock.js';
import type { AccountType } from '../../lib/auth/viewer.js';
import { Forbidden, NotFound } from '../../lib/errors.js';
import { createDownloadSigner, type DataRead } from '../../lib/objects/signed-url.js';
import { DownloadGrantService } from './download-grant.service.js';
import type { Actor } from './dataset.service.js';

const HOLDER = '01a20000-0000-7000-8000-000000000001';
const READS: DataRead[] = [{ datasetId: 'd1', version: 2, draft: false }];

describe(DownloadGrantService.name, () => {
  const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
  const signer = createDownloadSigner(randomBytes(32));
  const accounts = new Map<string, { accountType: AccountType; verified: boolean }>();
  /** The dataset decision: who may read which dataset right now. */
  const readers = new Map<string, Set<string>>();
  const checked: Actor[] = [];
  const service = new DownloadGrantService(
    signer,
    {
      async checkStillReadable(actor, reads) {
        checked.push(actor);
        for (const r of reads) {
          if (!readers.get(r.datasetId)?.has(actor.id) && !actor.superuser) throw new Forbidden(`dataset ${r.datasetId} is restricted`);
        }
      },
    },
    async (id) => accounts.get(id) ?? null,
    clock,
  );
  const token = (extra: Partial<Parameters<typeof signer.sign>[0]> = {}) =>
    signer.sign({ key: 'datasets/d1/assets/abc', expiresAt: new Date(clock.now().getTime() + 3600_000), filename: 'neurons.csv', issuedTo: { id: HOLDER, remote: false }, reads: READS, ...extra });
  const refusal = async (t: string) => service.open(t).then(() => null, (e: Error) => e);

  it('opens a grant while its holder may read the data, and refuses it from the moment they may not', async () => {
    accounts.set(HOLDER, { accountType: 'ACADEMIC', verified: true });
    readers.set('d1', new Set([HOLDER]));
    const t = token();
    expect(await service.open(t)).toMatchObject({ key: 'datasets/d1/assets/abc', filename: 'neurons.csv' });
    readers.set('d1', new Set());
    const e = await refusal(t);
    expect(e).toBeInstanceOf(Forbidden);
    expect(e!.message).toMatch(/no longer works: the account it was issued to may no longer read/);
    readers.set('d1', new Set([HOLDER]));
    expect(await service.open(t)).toMatchObject({ key: 'datasets/d1/assets/abc' });
  });

  it('refuses the grant of an account deleted or no longer Academic, and decides for a SuperUser as one', async () => {
    readers.set('d1', new Set([HOLDER]));
    const t = token();
    accounts.set(HOLDER, { accountType: 'ACADEMIC', verified: false });
    expect((await refusal(t))?.message).toMatch(/no longer works/);
    accounts.delete(HOLDER);
    expect((await refusal(t))?.message).toMatch(/no longer works/);
    accounts.set(HOLDER, { accountType: 'SUPERUSER', verified: true });
    readers.set('d1', new Set());
    await service.open(t);
    expect(checked.at(-1)).toEqual({ id: HOLDER, superuser: true });
  });

  it('decides for a person of another cluster by the dataset decision alone, never as a local account', async () => {
    const remoteId = '01a20000-0000-8000-8000-000000000009';
    readers.set('d1', new Set([remoteId]));
    await service.open(token({ issuedTo: { id: remoteId, remote: true } }));
    expect(checked.at(-1)).toEqual({ id: remoteId, superuser: false });
    readers.set('d1', new Set());
    expect((await refusal(token({ issuedTo: { id: remoteId, remote: true } })))?.message).toMatch(/no longer works/);
  });

  it('maps a dataset that is gone to the same refusal, and refuses grants that name no holder, expired or forged ones', async () => {
    accounts.set(HOLDER, { accountType: 'ACADEMIC', verified: true });
    const gone = new DownloadGrantService(signer, { checkStillReadable: async () => Promise.reject(new NotFound('dataset "d1" not found')) }, async () => accounts.get(HOLDER)!, clock);
    expect((await gone.open(token()).then(() => null, (e: Error) => e))?.message).toMatch(/no longer works/);
    expect((await refusal(signer.sign({ key: 'k', expiresAt: new Date(clock.now().getTime() + 1000) })))?.message).toBe('this download URL is not valid');
    expect((await refusal(token({ expiresAt: new Date(clock.now().getTime() - 1000) })))?.message).toMatch(/has expired/);
    expect((await refusal(`${token().split('.')[0]}.${'A'.repeat(43)}`))?.message).toBe('this download URL is not valid');
  });
});
