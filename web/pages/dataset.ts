import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { attachmentDisposition } from '../../lib/objects/objects.js';
import { bytes, count, day, paragraphs } from '../format.js';
import { postForm } from '../forms.js';
import { html, jsonScript, raw, type SafeHtml } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import { CATALOGUE_PATH } from './catalogue.js';
import type { DatasetAccessOfResult, DatasetAsViewerResult, DatasetFilesResult, DatasetPageResult } from '../operations.types.js';


/** How long the URL a file link redirects to works: it is followed at once. */
const DOWNLOAD_URL_SECONDS = 300;

type Published = NonNullable<DatasetPageResult['publishedDataset']>;
type AsViewer = NonNullable<DatasetAsViewerResult['dataset']>;
/** The metadata both records carry (the same selection of both). */
type Metadata = Pick<Published, 'title' | 'description' | 'keywords' | 'license' | 'doi' | 'species' | 'brain_regions' | 'microscopy' | 'neurotransmitters' | 'creators' | 'related_publication'>;
type Term = Metadata['species'][number];
type Files = DatasetFilesResult['datasetAssets'];
type AccessRequest = NonNullable<DatasetAccessOfResult['datasetAccess']['request']>;

/** What the viewer is: signed out, signed in without the Academic class (the dataset API refused), or Academic. */
type Viewer = 'anonymous' | 'not-academic' | 'academic';

interface PageView {
  viewer: Viewer;
  published: Published | null;
  mine: AsViewer | null;
  files: Files | null;
  draftFiles: Files | null;
  missing: string[] | null;
  request: AccessRequest | null;
}

const datasetPath = (slug: string) => `${CATALOGUE_PATH}/${encodeURIComponent(slug)}`;
const errorCode = (result: ExecutionResult<unknown>): string | undefined => result.errors?.[0]?.extensions?.code as string | undefined;
const dataOf = <T, K extends keyof T>(result: ExecutionResult<T>, field: K): T[K] | null => (result.errors?.length ? null : (result.data?.[field] ?? null));

/**
 * `/datasets/{slug}`: a dataset's landing page. For everyone, its public record (`publishedDataset`): metadata,
 * creators, ontology terms, versions, licence, citation with BibTeX and RIS downloads, and its schema.org JSON-LD in
 * the page's head. With the session's Academic account: the files of the version and their downloads (when it may
 * read the data), or a form to request access to a restricted dataset and the request's status. For the owner and
 * maintainers: the open draft (also one never published, which nobody else finds), what it lacks, and Publish.
 */
export const datasetPage: WebPage = {
  routes(scope, kit) {
    scope.get(`${CATALOGUE_PATH}/:slug`, async (request, reply) => {
      const slug = (request.params as { slug: string }).slug;
      const view = await viewOf(kit, request, slug);
      if ('error' in view) return notFound(kit, request, reply, slug, view.error);
      // A former slug (docs/neurodata.md) answers with the page's address now, so links and bookmarks follow it.
      const current = view.published?.slug ?? view.mine?.slug;
      if (current && current !== slug && slug !== (view.published?.dataset_id ?? view.mine?.id)) {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(`${datasetPath(current)}${query}`, 301);
      }
      return view.published ? renderPublished(kit, request, reply, view as PageView & { published: Published }) : renderDraft(kit, request, reply, view as PageView & { mine: AsViewer });
    });

    for (const [ext, format] of [
      ['bib', 'bibtex'],
      ['ris', 'ris'],
    ] as const) {
      scope.get(`${CATALOGUE_PATH}/:slug/citation.${ext}`, async (request, reply) => {
        const slug = (request.params as { slug: string }).slug;
        const result = await kit.run(request, 'datasetCitations', { slug });
        const record = dataOf(result, 'publishedDataset');
        const citation = record?.citations.find((c) => c.format === format);
        if (!citation) return notFound(kit, request, reply, slug, result.errors?.[0] ?? null);
        return reply.code(200).type(citation.media_type).header('content-disposition', attachmentDisposition(citation.filename)).header('cache-control', 'no-store').send(citation.text);
      });
    }

    // A file of a version: the signed download URL is made now (it expires in minutes) and the browser sent there.
    scope.get(`${CATALOGUE_PATH}/:slug/files/:asset_id`, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const { slug, asset_id } = request.params as { slug: string; asset_id: string };
      const version = String((request.query as { version?: string }).version ?? '') || null;
      const result = await kit.run(request, 'downloadUrl', { input: { dataset_id: slug, version, asset_ids: [asset_id], expires_in: DOWNLOAD_URL_SECONDS } });
      if (result.errors?.[0]) return kit.operationFailed(request, reply, result.errors[0], 'dataset file download failed');
      const url = result.data!.createDownloadUrls.urls[0]?.url;
      if (!url) return reply.callNotFound();
      return reply.header('cache-control', 'no-store').redirect(url, 303);
    });

    scope.post(`${CATALOGUE_PATH}/:slug/access`, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const slug = (request.params as { slug: string }).slug;
      const message = String((request.body as Record<string, unknown>).message ?? '').trim() || null;
      const result = await kit.run(request, 'requestDatasetAccess', { id: slug, message });
      const error = result.errors?.[0];
      if (error) return kit.redirectWithFlash(reply, datasetPath(slug), { kind: 'alert', message: `Your request was not sent: ${errorOf(request, error, 'access request failed').message}` });
      return kit.redirectWithFlash(reply, datasetPath(slug), { kind: 'status', message: 'Your access request is sent. The owner or a maintainer of the dataset decides; this page shows the answer.' });
    });

    scope.post(`${CATALOGUE_PATH}/:slug/publish`, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const slug = (request.params as { slug: string }).slug;
      const note = String((request.body as Record<string, unknown>).note ?? '').trim() || null;
      const result = await kit.run(request, 'publishDataset', { id: slug, note });
      const error = result.errors?.[0];
      if (error) return kit.redirectWithFlash(reply, datasetPath(slug), { kind: 'alert', message: `The draft was not published: ${errorOf(request, error, 'publish failed').message}` });
      const { version } = result.data!.publishDataset;
      return kit.redirectWithFlash(reply, datasetPath(slug), { kind: 'status', message: `Version ${version} is published: everyone can find it in the catalogue now.` });
    });
  },
};

/** Everything the page shows, from the operations the viewer may run; an error when there is nothing to show them. */
async function viewOf(kit: WebKit, request: FastifyRequest, slug: string): Promise<PageView | { error: GraphQLError | null }> {
  const signedIn = Boolean(stateOf(request).session.accessToken);
  const [record, asViewer] = await Promise.all([kit.run(request, 'datasetPage', { slug }), signedIn ? kit.run(request, 'datasetAsViewer', { id: slug }) : null]);
  const published = dataOf(record, 'publishedDataset');
  if (!published && errorCode(record) !== 'NOT_FOUND') return { error: record.errors?.[0] ?? null };
  const mine = asViewer ? dataOf(asViewer, 'dataset') : null;
  const viewer: Viewer = !signedIn ? 'anonymous' : asViewer && ['FORBIDDEN', 'UNAUTHENTICATED'].includes(errorCode(asViewer) ?? '') ? 'not-academic' : 'academic';
  // A dataset never published is shown only to those who may change it: the owner, maintainers, SuperUsers.
  if (!published && !mine?.access.can_modify) return { error: record.errors?.[0] ?? null };

  const id = published?.dataset_id ?? mine!.id;
  const hasDraft = Boolean(mine?.access.can_modify && mine.draft_version !== null);
  // incompleteDatasets lists the drafts of the caller's own and maintained datasets (not every draft a SuperUser sees).
  const knowsMissing = hasDraft && ['owner', 'maintainer'].includes(mine!.access.role);
  const readsData = viewer === 'academic' && Boolean(published?.can_read_data);
  const asksAccess = viewer === 'academic' && published?.visibility === 'restricted' && !published.can_read_data;
  const [files, draftFiles, missing, access] = await Promise.all([
    readsData ? kit.run(request, 'datasetFiles', { id, version: `v${published!.version}` }) : null,
    hasDraft ? kit.run(request, 'datasetFiles', { id, version: 'draft' }) : null,
    knowsMissing ? missingOf(kit, request, id) : null,
    asksAccess ? kit.run(request, 'datasetAccessOf', { id }) : null,
  ]);
  return {
    viewer,
    published,
    mine,
    files: files ? dataOf(files, 'datasetAssets') : null,
    draftFiles: draftFiles ? dataOf(draftFiles, 'datasetAssets') : null,
    missing,
    request: access ? (dataOf(access, 'datasetAccess')?.request ?? null) : null,
  };
}

/** What the draft of dataset `id` lacks: [] when it is not among the caller's incomplete drafts; null when unknown. */
async function missingOf(kit: WebKit, request: FastifyRequest, id: string): Promise<string[] | null> {
  for (let offset = 0; ; offset += 200) {
    const page = dataOf(await kit.run(request, 'draftsMissing', { offset }), 'incompleteDatasets');
    if (!page) return null;
    const found = page.items.find((d) => d.dataset.id === id);
    if (found) return found.missing;
    if (offset + page.items.length >= page.total || !page.items.length) return [];
  }
}

function notFound(kit: WebKit, request: FastifyRequest, reply: FastifyReply, slug: string, error: GraphQLError | null): FastifyReply {
  const failed = error ? errorOf(request, error, 'dataset page failed') : { status: 404, message: '' };
  if (failed.status !== 404) return kit.render(request, reply, { title: 'Something went wrong', body: html`<h1>That did not work</h1><p>${failed.message}</p>` }, failed.status);
  const body = html`<h1>Dataset not found</h1>
<p>No published dataset is called “${slug}”. It may have been renamed, deleted, or not published yet.</p>
<p><a href="${CATALOGUE_PATH}">Search the catalogue</a></p>`;
  return kit.render(request, reply, { title: 'Dataset not found', body }, 404);
}

function renderPublished(kit: WebKit, request: FastifyRequest, reply: FastifyReply, view: PageView & { published: Published }): FastifyReply {
  const d = view.published;
  const path = datasetPath(d.slug);
  const body = html`<p class="breadcrumb"><a href="${CATALOGUE_PATH}">All datasets</a></p>
<h1>${d.title}</h1>
<p class="lede">${d.visibility === 'restricted' ? html`<span class="badge">Restricted</span> ` : html`<span class="badge">Public</span> `}Version ${d.version}, published ${day(d.version_published_at)}</p>
${view.mine?.access.can_modify && view.mine.draft_version !== null ? draftPanel(request, view.mine, view.missing, view.draftFiles, path) : ''}
${aboutSections(d)}
<section aria-labelledby="data-title">
  <h2 id="data-title">Data</h2>
  ${d.counts ? countsList(d.counts) : ''}
  ${dataAccess(request, view, path)}
</section>
<section aria-labelledby="versions-title">
  <h2 id="versions-title">Versions</h2>
  <ul class="version-list">${d.versions.map((v) => html`<li><strong>Version ${v.version}</strong>, published ${day(v.published_at)}${v.note ? html`: ${v.note}` : ''}</li>`)}</ul>
</section>
${licenceSection(d)}
<section aria-labelledby="cite-title">
  <h2 id="cite-title">Cite this dataset</h2>
  <p class="citation" id="citation-text">${d.citation}</p>
  <p><button type="button" class="button button-secondary" data-copy="citation-text" hidden>Copy the citation</button></p>
  <ul class="link-list">
    ${d.citations.map((c) => html`<li><a href="${path}/citation.${c.format === 'bibtex' ? 'bib' : 'ris'}" download="${c.filename}">Download the citation as ${c.format === 'bibtex' ? 'BibTeX' : 'RIS'}</a> (<code>${c.filename}</code>)</li>`)}
  </ul>
  <p>Programs read this record as JSON at <a href="/v1/search/datasets/${encodeURIComponent(d.slug)}"><code>/v1/search/datasets/${d.slug}</code></a>.</p>
</section>`;
  return kit.render(request, reply, { title: d.title, body, head: jsonScript(d.json_ld), scripts: ['copy.js'] });
}

function renderDraft(kit: WebKit, request: FastifyRequest, reply: FastifyReply, view: PageView & { mine: AsViewer }): FastifyReply {
  const d = view.mine;
  const body = html`<p class="breadcrumb"><a href="${CATALOGUE_PATH}">All datasets</a></p>
<h1>${d.title}</h1>
<p class="lede"><span class="badge">Draft</span> Not published yet: only its owner, its maintainers and SuperUsers can see this page.</p>
${draftPanel(request, d, view.missing, view.draftFiles, datasetPath(d.slug))}
${aboutSections(d)}
${licenceSection(d)}`;
  // A draft is nobody's to index.
  return kit.render(request, reply, { title: `Draft: ${d.title}`, body, head: raw('<meta name="robots" content="noindex">') });
}

/** The open draft, for those who may change it: what it lacks, its files, and the Publish button. */
function draftPanel(request: FastifyRequest, d: AsViewer, missing: string[] | null, files: Files | null, path: string): SafeHtml {
  const { csrf } = stateOf(request);
  const next = d.draft_version ?? 1;
  return html`<section class="panel draft-panel" aria-labelledby="draft-title">
  <h2 id="draft-title">${d.status === 'draft' ? 'Publishing this draft' : html`Unpublished changes (version ${next})`}</h2>
  ${
    missing === null
      ? ''
      : missing.length
        ? html`<p>Before it can be published, the draft needs:</p><ul class="missing-list">${missing.map((m) => html`<li>${m}</li>`)}</ul>
<p class="hint">Add metadata with <code>PATCH /v1/neurodata/datasets/${d.id}</code> and files with <code>POST /v1/neurodata/datasets/${d.id}/assets</code>.</p>`
        : html`<p>The draft has everything a publication needs.</p>`
  }
  ${files ? filesList(files, path, `Files of the draft`) : ''}
  ${postForm(
    `${path}/publish`,
    csrf,
    html`<div class="field">
  <label for="f-note">What changed in this version (optional)</label>
  <input type="text" id="f-note" name="note" maxlength="2000">
</div>
<button type="submit" class="button">Publish version ${next}</button>`,
  )}
</section>`;
}

function aboutSections(d: Metadata): SafeHtml {
  const termRows = (
    [
      ['Species', d.species],
      ['Brain regions', d.brain_regions],
      ['Microscopy', d.microscopy],
      ['Neurotransmitters', d.neurotransmitters],
    ] as const
  ).filter(([, terms]) => terms.length);
  return html`<section aria-labelledby="about-title">
  <h2 id="about-title">About</h2>
  ${d.description ? paragraphs(d.description, 'description') : html`<p>No description yet.</p>`}
  ${d.keywords.length ? html`<p><strong>Keywords:</strong> ${d.keywords.join(', ')}</p>` : ''}
</section>
${
  d.creators.length
    ? html`<section aria-labelledby="creators-title">
  <h2 id="creators-title">Creators</h2>
  <ul class="creator-list">${d.creators.map(
    (c) =>
      html`<li>${c.name}${c.affiliation ? html`, ${c.affiliation}` : ''}${c.orcid ? html` · <a href="https://orcid.org/${c.orcid}">ORCID iD<span class="visually-hidden"> of ${c.name}</span></a> <code>${c.orcid}</code>` : ''}</li>`,
  )}</ul>
</section>`
    : ''
}
${
  termRows.length
    ? html`<section aria-labelledby="terms-title">
  <h2 id="terms-title">Ontology terms</h2>
  <dl class="details">${termRows.map(([label, terms]) => html`<dt>${label}</dt><dd><ul class="term-list">${terms.map(termItem)}</ul></dd>`)}</dl>
</section>`
    : ''
}`;
}

/** A term: its label links to the ontology's record of it here (public), its IRI to its source ontology. */
function termItem(t: Term): SafeHtml {
  return html`<li><a href="/v1/ontology/terms/${encodeURIComponent(t.term_id)}">${t.label}</a> <code>${t.code}</code>${
    t.uri && /^https?:\/\//.test(t.uri) ? html` (<a href="${t.uri}">IRI<span class="visually-hidden"> of ${t.label}</span></a>)` : ''
  }</li>`;
}

function licenceSection(d: Metadata): SafeHtml {
  const pub = d.related_publication;
  const link = (doi: string | null, url: string | null) => (doi ? `https://doi.org/${doi.replace(/^(?:doi:|https?:\/\/(?:dx\.)?doi\.org\/)/i, '')}` : url);
  const pubLink = pub ? link(pub.doi, pub.url) : null;
  return html`<section aria-labelledby="licence-title">
  <h2 id="licence-title">Licence and publications</h2>
  <p>${d.license ? html`Licence: <a href="https://spdx.org/licenses/${encodeURIComponent(d.license)}.html">${d.license}</a>` : 'No licence given yet.'}</p>
  ${d.doi ? html`<p>DOI: <a href="${link(d.doi, null)}">${d.doi}</a></p>` : ''}
  ${
    pub && (pub.citation || pubLink)
      ? html`<p>Related publication: ${pub.citation ?? ''}${pubLink && /^https?:\/\//.test(pubLink) ? html` <a href="${pubLink}">Read the publication<span class="visually-hidden">: ${pub.citation ?? ''}</span></a>` : ''}</p>`
      : ''
  }
</section>`;
}

function countsList(c: NonNullable<Published['counts']>): SafeHtml {
  const rows = (
    [
      ['Neurons', c.neurons],
      ['Connections', c.connections],
      ['Chemical synapses', c.chemical_connections],
      ['Gap junctions', c.electrical_connections],
      ['Morphologies', c.morphologies],
    ] as const
  ).filter(([, n]) => n > 0);
  if (!rows.length) return html``;
  return html`<dl class="details counts">${rows.map(([label, n]) => html`<dt>${label}</dt><dd>${count(n)}</dd>`)}</dl>`;
}

function filesList(files: Files, path: string, caption: string): SafeHtml {
  if (!files.items.length) return html`<p>${caption}: none yet.</p>`;
  const version = files.draft ? 'draft' : `v${files.version}`;
  return html`<h3>${caption}</h3>
<ul class="file-list">${files.items.map(
    (f) => html`<li>
  <a href="${path}/files/${encodeURIComponent(f.id)}?version=${version}">Download ${f.filename}</a>
  <span class="file-facts">${f.kind}, ${bytes(f.size)}${f.rows && f.kind !== 'morphology' ? html`, ${count(f.rows)} ${f.rows === 1 ? 'row' : 'rows'}` : ''}</span>
  <span class="file-sum">SHA-256 <code>${f.sha256}</code></span>
</li>`,
  )}</ul>`;
}

/** What the viewer may do with the data: download the files, sign in, or ask for access. */
function dataAccess(request: FastifyRequest, view: PageView & { published: Published }, path: string): SafeHtml {
  const d = view.published;
  const signIn = html`<a href="/sign-in?next=${encodeURIComponent(path)}">Sign in</a>`;
  // can_read_data is false without an Academic account, even for a public dataset: it answers what the data routes would.
  if (d.can_read_data || d.visibility === 'public') {
    if (view.files) return filesList(view.files, path, `Files of version ${d.version}`);
    if (view.viewer === 'anonymous') return html`<p>${signIn} with an Academic account to download its files and query its data.</p>`;
    if (view.viewer === 'not-academic') return html`<p>Downloading files and querying the data need an Academic account: <a href="/account">see how to verify your account</a>.</p>`;
    return html``;
  }
  const restricted = html`<p>This dataset is restricted: its owner shares its data (files, rows and counts) on request.</p>`;
  if (view.viewer === 'anonymous') return html`${restricted}<p>${signIn} with an Academic account to request access.</p>`;
  if (view.viewer === 'not-academic') return html`${restricted}<p>Requesting access needs an Academic account: <a href="/account">see how to verify your account</a>.</p>`;
  const r = view.request;
  const { csrf } = stateOf(request);
  const form = postForm(
    `${path}/access`,
    csrf,
    html`<div class="field">
  <label for="f-message">Why you need the data (optional, shown to the owner)</label>
  <textarea id="f-message" name="message" rows="3" maxlength="2000"></textarea>
</div>
<button type="submit" class="button">Request access</button>`,
    html` class="stack"`,
  );
  if (r?.status === 'pending') return html`${restricted}<p class="request-status"><strong>Your access request is pending</strong> (sent ${day(r.created_at)}). The owner or a maintainer decides; this page shows the answer.</p>`;
  if (r?.status === 'denied')
    return html`${restricted}<p class="request-status"><strong>Your access request was denied</strong> on ${day(r.updated_at)}${r.response_message ? html`: “${r.response_message}”` : ''}. You may ask again.</p>${form}`;
  return html`${restricted}<h3>Request access</h3>${form}`;
}
