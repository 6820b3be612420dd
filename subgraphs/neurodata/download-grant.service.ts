import type { Clock } from '../../lib/clock.js';
import { AccessClass, classOf, satisfies } from '../../lib/access.js';
import type { Viewer } from '../../lib/auth/viewer.js';
import { Conflict, Forbidden, NotFound } from '../../lib/errors.js';
import type { DownloadGrant, DownloadVerification } from '../../lib/objects/signed-url.js';
import type { DatasetService } from './dataset.service.js';

/** The account's standing as stored now (the identity subgraph's exported function); null once it is gone. */
export type StandingLookup = (accountId: string) => Promise<Pick<Viewer, 'accountType' | 'verified'> | null>;

const WITHDRAWN = 'this download URL no longer works: the account it was issued to may no longer read the data it leads to';
const INVALID = 'this download URL is not valid';

/**
 * Opens the signed download URLs of `/v1/neurodata/files` (dataset files, job results). A URL is a bearer
 * credential, so its grant names who it was issued to and which dataset versions it reads; every download decides
 * again, as of now, whether that account may read them (docs/neurodata.md, "Download URLs and withdrawn access").
 */
export class DownloadGrantService {
  constructor(
    private readonly verifier: { verify(token: string, now: Date): DownloadVerification },
    private readonly datasets: Pick<DatasetService, 'checkStillReadable'>,
    private readonly standing: StandingLookup,
    private readonly clock: Clock,
  ) {}

  /** The object a grant names, once its signature, expiry and the current access decision allow it; Forbidden otherwise. */
  async open(token: string): Promise<DownloadGrant> {
    const checked = this.verifier.verify(token, this.clock.now());
    if (!checked.ok) {
      throw new Forbidden(checked.reason === 'expired' ? 'this download URL has expired; ask for a new one with POST /v1/neurodata/download-urls' : INVALID);
    }
    const grant = checked.grant;
    // Every URL this service signs names its holder; one without cannot be checked and is not honoured.
    if (!grant.issuedTo || !grant.reads) throw new Forbidden(INVALID);
    let superuser = false;
    if (!grant.issuedTo.remote) {
      const now = await this.standing(grant.issuedTo.id);
      // Deleted, or no longer an Academic account: the dataset routes would refuse it, so does its URL.
      if (!now || !satisfies(classOf({ id: grant.issuedTo.id, tokenId: '', ...now }), AccessClass.Academic)) throw new Forbidden(WITHDRAWN);
      superuser = now.accountType === 'SUPERUSER';
    }
    try {
      await this.datasets.checkStillReadable({ id: grant.issuedTo.id, superuser }, grant.reads);
    } catch (e) {
      if (e instanceof NotFound || e instanceof Forbidden || e instanceof Conflict) throw new Forbidden(WITHDRAWN);
      throw e;
    }
    return grant;
  }
}
