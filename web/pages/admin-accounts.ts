import type { FastifyReply, FastifyRequest } from 'fastify';
import { day } from '../format.js';
import { postForm } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import type { AccountType, AdminAccountsResult } from '../operations.types.js';

type ManagedAccount = AdminAccountsResult['accounts']['items'][number];

const PATH = '/admin/accounts';
const PAGE_SIZE = 25;
const CLASS_NAME: Record<AccountType, string> = { REGULAR: 'Regular', ACADEMIC: 'Academic', SERVICE: 'Service', SUPERUSER: 'SuperUser' };

/** The list's address for a search and a page: the one form of it, so the forms come back to where they were sent from. */
const listUrl = (email: string, page: number) => {
  const q = new URLSearchParams();
  if (email) q.set('email', email);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `${PATH}?${s}` : PATH;
};

/**
 * `/admin/accounts`, for SuperUsers: the accounts (newest first, searched by email, paged) with Verify (with a
 * reason) and Unverify buttons, the same operations as POST and DELETE /v1/user/{user_id}/verify. Others get a 403
 * page; the navigation shows the entry to SuperUsers only.
 */
export const adminAccountsPage: WebPage = {
  nav: [{ href: PATH, label: 'Accounts', signedIn: true, superUser: true }],
  routes(scope, kit) {
    scope.get(PATH, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const q = request.query as { email?: string; page?: string };
      const email = typeof q.email === 'string' ? q.email.trim().slice(0, 254) : '';
      const page = Math.max(1, Math.min(Number.parseInt(q.page ?? '1', 10) || 1, 10_000));
      const result = await kit.run(
        request,
        'adminAccounts',
        { email: email || null, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
      );
      const error = result.errors?.[0];
      if (error?.extensions?.code === 'FORBIDDEN') return notForYou(kit, request, reply);
      if (error) return kit.operationFailed(request, reply, error, 'accounts page failed');
      const accounts = result.data!.accounts;
      return renderAccounts(kit, request, reply, { email, page, ...accounts });
    });

    for (const action of ['verify', 'unverify'] as const) {
      scope.post(`${PATH}/:id/${action}`, async (request, reply) => {
        if (!kit.requireSignIn(request, reply)) return reply;
        const id = (request.params as { id: string }).id;
        const form = request.body as Record<string, string | undefined>;
        const back = listUrl((form.email ?? '').trim(), Number.parseInt(form.page ?? '1', 10) || 1);
        const result =
          action === 'verify'
            ? await kit.run(request, 'verifyAccount', {
                user_id: id,
                reason: form.reason ?? '',
              })
            : await kit.run(request, 'unverifyAccount', { user_id: id });
        const error = result.errors?.[0];
        if (error?.extensions?.code === 'FORBIDDEN') return notForYou(kit, request, reply);
        if (error) return kit.redirectWithFlash(reply, back, { kind: 'alert', message: errorOf(request, error, `account ${action} failed`).message });
        const data = result.data!;
        const done = 'verifyAccount' in data ? data.verifyAccount : data.unverifyAccount;
        return kit.redirectWithFlash(reply, back, { kind: 'status', message: `${done.message}.` });
      });
    }
  },
};

function notForYou(kit: WebKit, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return kit.render(
    request,
    reply,
    {
      title: 'Not for your account',
      body: html`<h1>Only SuperUsers administer accounts</h1>
<p>This page lists the service's accounts and verifies them; it is open to SuperUsers only. Nothing was changed.</p>
<p>To have your own account verified, see <a href="/account">your account</a>.</p>`,
    },
    403,
  );
}

interface ListState {
  email: string;
  page: number;
  total: number;
  items: ManagedAccount[];
}

function renderAccounts(kit: WebKit, request: FastifyRequest, reply: FastifyReply, list: ListState): FastifyReply {
  const { csrf } = stateOf(request);
  const pages = Math.max(1, Math.ceil(list.total / PAGE_SIZE));
  const from = list.total ? (list.page - 1) * PAGE_SIZE + 1 : 0;
  const to = (list.page - 1) * PAGE_SIZE + list.items.length;
  const body = html`<h1>Accounts</h1>
<p>A Regular account becomes Academic when a SuperUser verifies it here: say why (it is kept with the verification and
shown to the account's owner). Unverify takes it back: the account is Regular at once, for the tokens it holds too.</p>
<form method="get" action="${PATH}" class="search-form" role="search">
  <div class="field">
    <label for="f-email">Email contains</label>
    <div class="search-row">
      <input type="search" id="f-email" name="email" value="${list.email}" maxlength="254" autocomplete="off">
      <button type="submit" class="button">Search</button>
    </div>
  </div>
</form>
<p class="result-count">${list.total ? `Accounts ${from} to ${to} of ${list.total}` : list.email ? 'No account has an email containing that.' : 'No accounts yet.'}</p>
${list.items.length ? html`<ul class="token-list account-list">${list.items.map((a) => accountItem(a, csrf, list))}</ul>` : ''}
${
  pages > 1
    ? html`<nav class="pager" aria-label="Account pages">
  ${list.page > 1 ? html`<a href="${listUrl(list.email, list.page - 1)}" rel="prev">Previous page</a>` : ''}
  <span>Page ${String(list.page)} of ${String(pages)}</span>
  ${list.page < pages ? html`<a href="${listUrl(list.email, list.page + 1)}" rel="next">Next page</a>` : ''}
</nav>`
    : ''
}`;
  return kit.render(request, reply, { title: 'Accounts', body, scripts: ['confirm.js'] });
}

function verificationText(a: ManagedAccount): string {
  const v = a.verification;
  if (!v) return a.account_type === 'REGULAR' ? 'not verified' : a.account_type === 'ACADEMIC' ? 'verified' : 'academic access by its type';
  if (v.method === 'INSTITUTIONAL') return `by institutional login${v.institution ? ` (${v.institution})` : ''} on ${day(v.verified_at)}`;
  return `by ${v.verified_by ? 'a SuperUser' : 'the operator’s command line'} on ${day(v.verified_at)}${v.reason ? `: “${v.reason}”` : ''}`;
}

function accountItem(a: ManagedAccount, csrf: string, list: ListState): SafeHtml {
  const keep = html`<input type="hidden" name="email" value="${list.email}"><input type="hidden" name="page" value="${String(list.page)}">`;
  const reasonId = `reason-${a.id}`;
  return html`<li class="token-item">
  <h3>${a.email}</h3>
  <dl class="details">
    <dt>Name</dt><dd>${a.display_name}</dd>
    <dt>Class</dt><dd><span class="badge">${CLASS_NAME[a.account_type]}</span>${a.deactivated_at ? ` deactivated on ${day(a.deactivated_at)}` : ''}</dd>
    <dt>Verification</dt><dd>${verificationText(a)}</dd>
    <dt>Registered</dt><dd>${day(a.created_at)}</dd>
    <dt>Account id</dt><dd><code>${a.id}</code></dd>
  </dl>
  ${
    a.account_type === 'REGULAR'
      ? postForm(
          `${PATH}/${a.id}/verify`,
          csrf,
          html`${keep}<div class="field">
  <label for="${reasonId}">Why verify ${a.email}?</label>
  <input id="${reasonId}" name="reason" type="text" required maxlength="500" autocomplete="off">
</div>
<button type="submit" class="button">Verify<span class="visually-hidden"> ${a.email}</span></button>`,
        )
      : a.account_type === 'ACADEMIC'
        ? postForm(
            `${PATH}/${a.id}/unverify`,
            csrf,
            html`${keep}<button type="submit" class="button button-danger">Unverify<span class="visually-hidden"> ${a.email}</span></button>`,
            html` data-confirm="${`Take back the verification of ${a.email}? The account becomes Regular at once.`}"`,
          )
        : ''
  }
</li>`;
}
