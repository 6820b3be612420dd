import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { createDataset } from '../../../test/kit/datasets.js';

const NEURONS = 'neuron_id,cell_class,neurotransmitter\nA1,A,acetylcholine\nB1,B,GABA\n';
const ADVICE = 'save it as UTF-8 (in a spreadsheet program: CSV UTF-8)';

/** What an uploaded file must be before it is read: its name, its encoding, the size of one cell. */
describe('POST /v1/neurodata/datasets/{id}/assets: file checks', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t, { accountType: 'ACADEMIC' });
  });
  afterAll(async () => t?.close());

  const upload = (datasetId: string, filename: string, body: string | Uint8Array, contentType = 'text/csv') =>
    call(t.url, 'POST', `/v1/neurodata/datasets/${datasetId}/assets?filename=${encodeURIComponent(filename)}`, { token: owner.accessToken, body, headers: { 'content-type': contentType } });
  const draftFiles = async (datasetId: string) => {
    const r = await call(t.url, 'GET', `/v1/neurodata/datasets/${datasetId}/assets?version=draft`, { token: owner.accessToken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.items as { filename: string }[]).map((a) => a.filename);
  };

  it('refuses a UTF-16 neurons.csv naming its encoding, rather than keeping it as another file', async () => {
    const d = await createDataset(t, owner);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(NEURONS, 'utf16le')]);
    const r = await upload(d.id, 'neurons.csv', utf16);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toEqual({ error: `neurons.csv: the file is UTF-16LE text (byte order mark FF FE), not UTF-8; ${ADVICE}` });
    const latin1 = Buffer.concat([Buffer.from('neuron_id,name\nA1,caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const r2 = await upload(d.id, 'notes.csv', latin1);
    expect(r2.status, JSON.stringify(r2.body)).toBe(400);
    expect(r2.body.error).toBe(`notes.csv line 2: byte E9 is not UTF-8 (the file looks like Latin-1 or Windows-1252 text); ${ADVICE}`);
    expect(await draftFiles(d.id)).toEqual([]);
    expect((await upload(d.id, 'neurons.csv', NEURONS)).status).toBe(201);
  });

  it('refuses a CSV cell over 64 KiB, naming the line and the limit', async () => {
    const d = await createDataset(t, owner);
    const r = await upload(d.id, 'neurons.csv', `${NEURONS}C1,${'x'.repeat(70_000)},GABA\n`);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(400);
    expect(r.body).toEqual({ error: 'neurons.csv line 4: a cell is 70000 characters long, over the limit of 65536 characters per cell' });
    expect(await draftFiles(d.id)).toEqual([]);
  });

  it('refuses a file name with a right-to-left override or another bidirectional control', async () => {
    const d = await createDataset(t, owner);
    for (const name of ['report\u202Evsc.csv', '\u2067neurons.csv', 'notes\u200F.txt']) {
      const r = await upload(d.id, name, NEURONS);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatch(/^filename: contains the bidirectional control character U\+(202E|2067|200F), which makes a name display differently from what it is/);
    }
    expect(await draftFiles(d.id)).toEqual([]);
  });
});
