import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLError } from 'graphql';
import { count, highlight } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import type { CataloguePageResult } from '../operations.types.js';

export const CATALOGUE_PATH = '/datasets';

/** The filters of the search (`searchDatasets`) the catalogue offers, in the order they are shown. */
const TERM_FILTERS = [
  { name: 'species', label: 'Species' },
  { name: 'brain_region', label: 'Brain region' },
  { name: 'microscopy', label: 'Microscopy' },
  { name: 'neurotransmitter', label: 'Neurotransmitter' },
] as const;
const LIST_FILTERS = [...TERM_FILTERS, { name: 'license', label: 'Licence' }] as const;
const ONE_VALUE_FILTERS = [
  { name: 'year', label: 'Year' },
  { name: 'visibility', label: 'Access' },
] as const;
type ListFilter = (typeof LIST_FILTERS)[number]['name'];
type OneValueFilter = (typeof ONE_VALUE_FILTERS)[number]['name'];
type FacetName = ListFilter | OneValueFilter;

const PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
/** The search's deepest offset. */
const MAX_OFFSET = 10_000;

const VOCABULARY_NAME: Record<string, string> = { species: 'species', brain_region: 'brain region', microscopy_technique: 'microscopy', neurotransmitter: 'neurotransmitter' };
const VISIBILITY_LABEL: Record<string, string> = { public: 'Public', restricted: 'Restricted: request access' };


type SearchResult = CataloguePageResult['searchDatasets'];
type Hit = SearchResult['items'][number];
type FacetValue = NonNullable<SearchResult['facets']>[FacetName][number];

/** What the catalogue's URL asks for: the query, the filters, the page. */
export interface CatalogueQuery {
  q: string;
  lists: Record<ListFilter, string[]>;
  single: Record<OneValueFilter, string>;
  page: number;
  limit: number;
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map(String).map((s) => s.trim()).filter(Boolean);
const first = (v: unknown): string => asList(v)[0] ?? '';

function positive(v: unknown, fallback: number, max: number): number {
  const n = Number(first(v));
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}

export function catalogueQueryOf(query: Record<string, unknown>): CatalogueQuery {
  const limit = positive(query.limit, PAGE_SIZE, MAX_PAGE_SIZE);
  return {
    q: first(query.q),
    lists: Object.fromEntries(LIST_FILTERS.map((f) => [f.name, [...new Set(asList(query[f.name]))]])) as Record<ListFilter, string[]>,
    single: Object.fromEntries(ONE_VALUE_FILTERS.map((f) => [f.name, first(query[f.name])])) as Record<OneValueFilter, string>,
    page: positive(query.page, 1, Math.floor(MAX_OFFSET / limit) + 1),
    limit,
  };
}

/** The catalogue's URL for a query (page 1 and the default page size are left out). */
export function catalogueUrl(c: CatalogueQuery): string {
  const params = new URLSearchParams();
  if (c.q) params.set('q', c.q);
  for (const f of LIST_FILTERS) for (const v of c.lists[f.name]) params.append(f.name, v);
  for (const f of ONE_VALUE_FILTERS) if (c.single[f.name]) params.set(f.name, c.single[f.name]);
  if (c.limit !== PAGE_SIZE) params.set('limit', String(c.limit));
  if (c.page > 1) params.set('page', String(c.page));
  const qs = params.toString();
  return qs ? `${CATALOGUE_PATH}?${qs}` : CATALOGUE_PATH;
}

const activeFilters = (c: CatalogueQuery): number => LIST_FILTERS.reduce((n, f) => n + c.lists[f.name].length, 0) + ONE_VALUE_FILTERS.filter((f) => c.single[f.name]).length;

/**
 * `/`, a short home page with a search box, and `/datasets`, the catalogue: the public search (`searchDatasets`, as
 * GET /v1/search/fulltext) as a GET form, with facet filters, paging, highlighted hits, the spelling correction and
 * the ontology terms the query was read as. Anyone may use it; a signed-in browser's search carries its session, so
 * it shows counts of the datasets the account may read.
 */
export const cataloguePage: WebPage = {
  nav: [{ href: CATALOGUE_PATH, label: 'Catalogue' }],
  routes(scope, kit) {
    scope.get('/', async (request, reply) => renderHome(kit, request, reply));

    scope.get(CATALOGUE_PATH, async (request, reply) => {
      const c = catalogueQueryOf(request.query as Record<string, unknown>);
      const result = await kit.run(request, 'cataloguePage', {
        q: c.q || null,
        ...Object.fromEntries(LIST_FILTERS.map((f) => [f.name, c.lists[f.name].length ? c.lists[f.name] : null])),
        year: c.single.year || null,
        visibility: c.single.visibility || null,
        limit: c.limit,
        offset: Math.min((c.page - 1) * c.limit, MAX_OFFSET),
      });
      const error = result.errors?.[0];
      if (error) return renderCatalogue(kit, request, reply, c, null, error);
      const found = result.data!.searchDatasets;
      // A page past the end (an old link, an edited URL) shows the last page, under that page's own URL.
      const last = Math.max(1, Math.min(Math.ceil(found.total / c.limit), Math.floor(MAX_OFFSET / c.limit) + 1));
      if (c.page > last) return reply.redirect(catalogueUrl({ ...c, page: last }), 302);
      return renderCatalogue(kit, request, reply, c, found);
    });
  },
};

function searchBox(id: string, value: string, hint?: string): SafeHtml {
  return html`<div class="field">
  <label for="${id}">Search the datasets</label>
  ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
  <div class="search-row">
    <input type="search" id="${id}" name="q" value="${value}" maxlength="500" autocomplete="off"${hint ? html` aria-describedby="${id}-hint"` : ''}>
    <button type="submit" class="button">Search</button>
  </div>
</div>`;
}

function renderHome(kit: WebKit, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const signedIn = Boolean(stateOf(request).session.accessToken);
  const body = html`<h1>Neurodata</h1>
<p class="lede">Connectomes and neuron morphologies with their metadata, citations and terms from shared ontologies, to search, cite and analyse.</p>
<form method="get" action="${CATALOGUE_PATH}" role="search" class="search-form">
  ${searchBox('home-q', '', 'For example: connectome, "nerve ring", hippocampus -mouse')}
</form>
<h2>Where to go</h2>
<ul class="link-list">
  <li><a href="${CATALOGUE_PATH}">Browse every dataset</a>, with filters by species, brain region, method, year and licence</li>
  ${
    signedIn
      ? html`<li><a href="/jobs">Your jobs</a>: SyQL exports and graph analyses, with their results</li>
  <li><a href="/account">Your account</a>: your access class and ways to sign in</li>`
      : html`<li><a href="/sign-in">Sign in</a> or <a href="/register">create an account</a> to request access to restricted datasets, download files and run jobs</li>`
  }
</ul>`;
  return kit.render(request, reply, { title: 'Home', body });
}

function renderCatalogue(kit: WebKit, request: FastifyRequest, reply: FastifyReply, c: CatalogueQuery, result: SearchResult | null, error?: GraphQLError): FastifyReply {
  const failed = error ? errorOf(request, error, 'catalogue search failed') : null;
  const title = c.q ? `Datasets matching “${c.q}”` : 'Datasets';
  const body = html`<h1>Datasets</h1>
<form method="get" action="${CATALOGUE_PATH}" role="search" class="search-form">
  ${searchBox('f-q', c.q, 'Words, "a phrase", or, -exclusion. Ontology terms match their narrower terms too.')}
  ${hiddenFilters(c)}
</form>
${failed ? html`<div class="error-summary" role="alert" tabindex="-1" data-error-summary><h2>The search did not run</h2><p>${failed.message}</p></div>` : ''}
${result ? filtersSection(c, result) : ''}
${result ? resultsSection(c, result) : ''}`;
  return kit.render(request, reply, { title, body }, failed ? failed.status : 200);
}

/** The filters and page size as hidden fields: a new query keeps them. */
function hiddenFilters(c: CatalogueQuery): SafeHtml {
  const values: [string, string][] = [
    ...LIST_FILTERS.flatMap((f) => c.lists[f.name].map((v): [string, string] => [f.name, v])),
    ...ONE_VALUE_FILTERS.filter((f) => c.single[f.name]).map((f): [string, string] => [f.name, c.single[f.name]]),
    ...(c.limit !== PAGE_SIZE ? [['limit', String(c.limit)] as [string, string]] : []),
  ];
  return html`${values.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

/** The active filters as links that remove one each, and the facets as a form that keeps the query. */
function filtersSection(c: CatalogueQuery, result: SearchResult): SafeHtml {
  const facets = result.facets;
  const active = activeFilters(c);
  const labelOf = (name: FacetName, value: string) => facets?.[name]?.find((f) => f.value === value)?.label ?? VISIBILITY_LABEL[value] ?? value;
  const removeLinks: SafeHtml[] = [];
  for (const f of LIST_FILTERS) {
    for (const v of c.lists[f.name]) {
      const without = { ...c, page: 1, lists: { ...c.lists, [f.name]: c.lists[f.name].filter((x) => x !== v) } };
      removeLinks.push(removeLink(catalogueUrl(without), f.label, labelOf(f.name, v)));
    }
  }
  for (const f of ONE_VALUE_FILTERS) {
    const v = c.single[f.name];
    if (!v) continue;
    const without = { ...c, page: 1, single: { ...c.single, [f.name]: '' } };
    removeLinks.push(removeLink(catalogueUrl(without), f.label, labelOf(f.name, v)));
  }

  const listFieldset = (name: ListFilter, label: string) => {
    const values = withSelected(facets?.[name] ?? [], c.lists[name]);
    if (!values.length) return '';
    return html`<fieldset class="facet">
  <legend>${label}</legend>
  <ul class="facet-list">${values.map((f, i) => {
    const id = `facet-${name}-${i}`;
    return html`<li><input type="checkbox" id="${id}" name="${name}" value="${f.value}"${c.lists[name].includes(f.value) ? html` checked` : ''}> <label for="${id}">${f.label} <span class="facet-count">(${count(f.count)})</span></label></li>`;
  })}</ul>
</fieldset>`;
  };
  const oneFieldset = (name: OneValueFilter, label: string, anyLabel: string) => {
    const values = withSelected(facets?.[name] ?? [], c.single[name] ? [c.single[name]] : []);
    if (!values.length) return '';
    return html`<fieldset class="facet">
  <legend>${label}</legend>
  <ul class="facet-list">
    <li><input type="radio" id="facet-${name}-any" name="${name}" value=""${c.single[name] ? '' : html` checked`}> <label for="facet-${name}-any">${anyLabel}</label></li>
    ${values.map((f, i) => {
      const id = `facet-${name}-${i}`;
      const label = name === 'visibility' ? (VISIBILITY_LABEL[f.value] ?? f.label) : f.label;
      return html`<li><input type="radio" id="${id}" name="${name}" value="${f.value}"${c.single[name] === f.value ? html` checked` : ''}> <label for="${id}">${label} <span class="facet-count">(${count(f.count)})</span></label></li>`;
    })}
  </ul>
</fieldset>`;
  };

  return html`${
    removeLinks.length
      ? html`<div class="active-filters"><ul class="chip-list" aria-label="Active filters">${removeLinks}</ul>
<p><a href="${catalogueUrl({ ...c, page: 1, lists: { species: [], brain_region: [], microscopy: [], neurotransmitter: [], license: [] }, single: { year: '', visibility: '' } })}">Clear all filters</a></p></div>`
      : ''
  }
${
  facets
    ? html`<details class="filters"${active ? html` open` : ''}>
  <summary>Filters${active ? html` (${active} active)` : ''}</summary>
  <form method="get" action="${CATALOGUE_PATH}" class="filter-form">
    ${c.q ? html`<input type="hidden" name="q" value="${c.q}">` : ''}${c.limit !== PAGE_SIZE ? html`<input type="hidden" name="limit" value="${c.limit}">` : ''}
    <div class="facet-grid">
      ${TERM_FILTERS.map((f) => listFieldset(f.name, f.label))}
      ${listFieldset('license', 'Licence')}
      ${oneFieldset('year', 'Year', 'Any year')}
      ${oneFieldset('visibility', 'Access', 'Public and restricted')}
    </div>
    <button type="submit" class="button button-secondary">Apply filters</button>
  </form>
</details>`
    : ''
}`;
}

const removeLink = (href: string, filter: string, value: string): SafeHtml =>
  html`<li><a class="chip" href="${href}"><span class="visually-hidden">Remove the filter </span>${filter}: ${value}<span aria-hidden="true"> ×</span></a></li>`;

/** A facet's values plus the selected ones it lacks (a filter that matches nothing still shows, to be unticked). */
function withSelected(values: FacetValue[], selected: string[]): FacetValue[] {
  const missing = selected.filter((s) => !values.some((v) => v.value === s)).map((s) => ({ value: s, label: s, count: 0 }));
  return [...values, ...missing];
}

function resultsSection(c: CatalogueQuery, result: SearchResult): SafeHtml {
  const from = result.total ? result.offset + 1 : 0;
  const to = result.offset + result.items.length;
  const pages = Math.max(1, Math.ceil(result.total / c.limit));
  const summary = result.total
    ? html`Showing ${count(from)}–${count(to)} of ${count(result.total)} ${result.total === 1 ? 'dataset' : 'datasets'}`
    : html`No datasets match${result.query ? html` “${result.query}”` : ''}${activeFilters(c) ? ' with these filters' : ''}.`;
  return html`<section class="results" aria-labelledby="results-title">
  <h2 id="results-title">Results</h2>
  ${
    result.corrected_query
      ? html`<p class="notice">Nothing matched “${result.query}”, so these are the results for “${result.corrected_query}”. <a href="${catalogueUrl({ ...c, q: result.corrected_query, page: 1 })}">Search for “${result.corrected_query}” instead</a>.</p>`
      : ''
  }
  ${interpretation(result)}
  <p class="result-count">${summary}</p>
  ${result.total === 0 ? html`<p>Try other words, fewer words, or fewer filters. An empty search lists every dataset.</p>` : ''}
  ${
    result.items.length
      ? html`<ol class="hit-list" start="${from}">${result.items.map(hitItem)}</ol>`
      : ''
  }
  ${
    pages > 1
      ? html`<nav class="pager" aria-label="Result pages">
    ${c.page > 1 ? html`<a href="${catalogueUrl({ ...c, page: c.page - 1 })}" rel="prev">Previous page</a>` : ''}
    <span>Page ${count(c.page)} of ${count(pages)}</span>
    ${to < result.total && result.offset + c.limit <= MAX_OFFSET ? html`<a href="${catalogueUrl({ ...c, page: c.page + 1 })}" rel="next">Next page</a>` : ''}
  </nav>`
      : ''
  }
</section>`;
}

function interpretation(result: SearchResult): SafeHtml {
  if (!result.interpreted.length) return html``;
  return html`<div class="interpreted">
  <p>Ontology terms in this search:</p>
  <ul>${result.interpreted.map(
    (t) =>
      html`<li>“${t.text}” is <a href="/v1/ontology/terms/${encodeURIComponent(t.term_id)}">${t.label}</a> (${VOCABULARY_NAME[t.vocabulary] ?? t.vocabulary}, <code>${t.code}</code>)${
        t.matched_terms > 1 ? html`, with ${count(t.matched_terms - 1)} narrower or replaced ${t.matched_terms === 2 ? 'term' : 'terms'}` : ''
      }</li>`,
  )}</ul>
</div>`;
}

function hitItem(hit: Hit): SafeHtml {
  const facts: SafeHtml[] = [];
  if (hit.species.length) facts.push(html`<li>${hit.species.map((s) => s.label).join(', ')}</li>`);
  if (hit.brain_regions.length) facts.push(html`<li>${hit.brain_regions.slice(0, 3).map((s) => s.label).join(', ')}${hit.brain_regions.length > 3 ? ' …' : ''}</li>`);
  facts.push(html`<li>${hit.year}</li>`);
  if (hit.license) facts.push(html`<li>${hit.license}</li>`);
  facts.push(html`<li>version ${hit.version}</li>`);
  if (hit.counts) {
    const parts = [hit.counts.neurons ? `${count(hit.counts.neurons)} neurons` : null, hit.counts.connections ? `${count(hit.counts.connections)} connections` : null, hit.counts.morphologies ? `${count(hit.counts.morphologies)} morphologies` : null].filter(Boolean);
    if (parts.length) facts.push(html`<li>${parts.join(', ')}</li>`);
  }
  const matched = [...new Map(hit.matched_terms.map((m) => [`${m.matched}|${m.annotation.label}`, m])).values()];
  return html`<li class="hit">
  <h3 class="hit-title"><a href="${`${CATALOGUE_PATH}/${encodeURIComponent(hit.slug)}`}">${highlight(hit.highlight.title)}</a>${hit.visibility === 'restricted' ? html` <span class="badge">Restricted</span>` : ''}</h3>
  ${hit.highlight.snippet ? html`<p class="hit-snippet">${highlight(hit.highlight.snippet)}</p>` : ''}
  <ul class="hit-facts">${facts}</ul>
  ${matched.length ? html`<p class="hit-matched">${matched.map((m, i) => html`${i ? '; ' : ''}“${m.matched}” matched ${m.annotation.label}`)}</p>` : ''}
</li>`;
}
