import type { FastifyReply, FastifyRequest } from 'fastify';
import { dateTime, day } from '../format.js';
import { errorSummary, errorsFromMessage, field, fieldId, noErrors, postForm, type FormErrors } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import type { ApiTokenScope, CreateApiTokenResult, TokensPageResult } from '../operations.types.js';

type TokenRow = TokensPageResult['apiTokens']['items'][number];
type MadeToken = CreateApiTokenResult['createApiToken'];

const PATH = '/tokens';
const LABELS = { name: 'Name', scope: 'Scope', expires_in_days: 'Expires after' };
const SCOPES: { value: ApiTokenScope; label: string; hint: string }[] = [
  { value: 'read', label: 'Read', hint: 'records, data, search and downloads' },
  { value: 'compute', label: 'Compute', hint: 'read, plus SyQL queries, jobs, graph analysis, analytics and meta-analysis' },
  { value: 'write', label: 'Write', hint: 'compute, plus creating and changing datasets and collections' },
];
const EXPIRIES = [30, 90, 180, 365];
const ENDED_BECAUSE: Record<string, string> = {
  owner: 'revoked by you',
  superuser: 'revoked by an administrator',
  credentials_changed: 'ended when the password or email changed',
  account_deactivated: 'ended when the account was deactivated',
};

/**
 * `/tokens`: personal API tokens for scripts and notebooks (docs/identity.md): made here, shown once with a copy
 * button and a curl example, listed with their last use, revoked with one button. Only a signed-in person gets here:
 * the API refuses every token operation to a token.
 */
export const tokensPage: WebPage = {
  nav: [{ href: PATH, label: 'API tokens', signedIn: true }],
  routes(scope, kit) {
    scope.get(PATH, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const showEnded = (request.query as { ended?: string }).ended === '1';
      const view = await load(kit, request, showEnded);
      if ('message' in view) return kit.operationFailed(request, reply, view, 'tokens page failed');
      return renderTokens(kit, request, reply, view, { showEnded, errors: noErrors(), values: { name: '', scope: 'read', expires_in_days: '90' } });
    });

    scope.post(PATH, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const form = request.body as Record<string, string | undefined>;
      const values = { name: (form.name ?? '').trim(), scope: form.scope ?? 'read', expires_in_days: form.expires_in_days ?? '90' };
      const errors = noErrors();
      if (!values.name) errors.fields.name = 'say what the token is for, e.g. "laptop notebooks"';
      const days = Number(values.expires_in_days);
      const created = Object.keys(errors.fields).length
        ? null
        : await kit.run(request, 'createApiToken', {
            // The form's value as sent: the API refuses one that is no scope, and the page shows its message.
            input: { name: values.name, scope: values.scope as ApiTokenScope, expires_in_days: Number.isInteger(days) ? days : -1 },
          });
      const error = created?.errors?.[0];
      if (error) {
        const { status, message } = errorOf(request, error, 'token creation failed');
        const failed = errorsFromMessage(message, { name: 'name', scope: 'scope', expires_in_days: 'expires_in_days' });
        const view = await load(kit, request, false);
        if ('message' in view) return kit.operationFailed(request, reply, view, 'tokens page failed');
        return renderTokens(kit, request, reply, view, { showEnded: false, errors: failed, values }, status);
      }
      const view = await load(kit, request, false);
      if ('message' in view) return kit.operationFailed(request, reply, view, 'tokens page failed');
      if (!created) return renderTokens(kit, request, reply, view, { showEnded: false, errors, values }, 400);
      const made = created.data!.createApiToken;
      // Answered here rather than redirected: the token exists only in this answer (and the page is never cached).
      return renderTokens(kit, request, reply, view, { showEnded: false, errors: noErrors(), values: { name: '', scope: 'read', expires_in_days: '90' }, made }, 201);
    });

    scope.post(`${PATH}/:id/revoke`, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const id = (request.params as { id: string }).id;
      const result = await kit.run(request, 'revokeApiToken', { token_id: id });
      const error = result.errors?.[0];
      if (error) return kit.redirectWithFlash(reply, PATH, { kind: 'alert', message: errorOf(request, error, 'token revocation failed').message });
      const name = result.data!.revokeApiToken.name;
      return kit.redirectWithFlash(reply, PATH, { kind: 'status', message: `The token "${name}" is revoked: programs using it are refused from now on.` });
    });
  },
};

async function load(kit: WebKit, request: FastifyRequest, includeEnded: boolean) {
  const result = await kit.run(
    request,
    'tokensPage',
    { include_revoked: includeEnded },
  );
  return result.errors?.[0] ?? result.data!;
}

interface TokensState {
  showEnded: boolean;
  errors: FormErrors;
  values: { name: string; scope: string; expires_in_days: string };
  made?: MadeToken;
}

function renderTokens(kit: WebKit, request: FastifyRequest, reply: FastifyReply, view: TokensPageResult, state: TokensState, status = 200): FastifyReply {
  const { csrf } = stateOf(request);
  const origin = kit.originOf(request);
  const academic = view.profile.account_type !== 'REGULAR';
  const body = html`<h1>API tokens</h1>
<p>A personal API token lets a script, a notebook or a scheduled job use the API as you, without your password.
Send it as <code>Authorization: Bearer &lt;token&gt;</code>. A token can do what your account can do, within its
scope; it can never manage tokens, change your password or email, or verify your account. Changing your password
ends every token.</p>
${academic ? '' : html`<p class="panel">Your account is Regular: its tokens search the public catalogue and read public information. Once it is Academic (<a href="/account">your account page</a> says how on this server), the tokens you already have open datasets, queries and analyses too.</p>`}
${state.made ? madePanel(state.made, origin, academic) : ''}
<section aria-labelledby="new-title">
  <h2 id="new-title">Make a token</h2>
  ${errorSummary(state.errors, LABELS)}
  ${postForm(
    PATH,
    csrf,
    html`${field({ name: 'name', label: LABELS.name, hint: 'What it is for, so you recognise it later (e.g. "laptop notebooks").', value: state.values.name, required: true, maxlength: 100, autocomplete: 'off' }, state.errors)}
${scopeField(state.values.scope, state.errors)}
${expiryField(state.values.expires_in_days, state.errors)}
<button type="submit" class="button">Make token</button>`,
  )}
</section>
<section aria-labelledby="list-title">
  <h2 id="list-title">${state.showEnded ? 'All your tokens' : 'Your tokens'}</h2>
  ${
    view.apiTokens.items.length
      ? html`<ul class="token-list">${view.apiTokens.items.map((t) => tokenItem(t, csrf))}</ul>`
      : html`<p>${state.showEnded ? 'You have made no tokens yet.' : 'You have no live tokens.'}</p>`
  }
  <p>${state.showEnded ? html`<a href="${PATH}">Show live tokens only</a>` : html`<a href="${PATH}?ended=1">Show revoked and expired tokens too</a>`}</p>
</section>`;
  return kit.render(request, reply, { title: 'API tokens', body, scripts: ['confirm.js', 'copy.js'] }, status);
}

function madePanel(made: MadeToken, origin: string, academic: boolean): SafeHtml {
  // An example the account can run as it is: a Regular account's tokens would get a 403 from every dataset route.
  const curl = `curl -H "Authorization: Bearer ${made.token}" ${origin}${academic ? '/v1/neurodata/datasets' : '/v1/user/profile'}`;
  return html`<section class="panel new-token" aria-labelledby="made-title">
  <h2 id="made-title" tabindex="-1" autofocus>Your new token "${made.api_token.name}"</h2>
  <p><strong>Copy it now: it is shown this once.</strong> The service keeps only a fingerprint of it.</p>
  <p class="secret"><code id="new-token">${made.token}</code></p>
  <p><button type="button" class="button button-secondary" data-copy="new-token" hidden>Copy the token</button></p>
  <p>Scope ${made.api_token.scope}, expires on ${day(made.api_token.expires_at)}. Try it:</p>
  <pre class="example"><code id="new-token-curl">${curl}</code></pre>
  <p><button type="button" class="link-button" data-copy="new-token-curl" hidden>Copy the example</button></p>
  <p>In a notebook or a script, keep it out of the code: <code>export NEURODATA_TOKEN=…</code> and read the variable.</p>
</section>`;
}

function scopeField(value: string, errors: FormErrors): SafeHtml {
  const error = errors.fields.scope;
  return html`<fieldset class="field${error ? ' field-invalid' : ''}"${error ? html` aria-describedby="${fieldId('scope')}-error"` : ''}>
  <legend>${LABELS.scope}</legend>
  ${error ? html`<p class="field-error" id="${fieldId('scope')}-error"><span class="visually-hidden">Error: </span>${error}</p>` : ''}
  ${SCOPES.map(
    (s, i) => html`<div class="choice">
    <input type="radio" name="scope" id="${i === 0 ? fieldId('scope') : `${fieldId('scope')}-${s.value}`}" value="${s.value}"${s.value === value ? html` checked` : ''} aria-describedby="scope-${s.value}-hint">
    <label for="${i === 0 ? fieldId('scope') : `${fieldId('scope')}-${s.value}`}">${s.label}</label>
    <p class="hint" id="scope-${s.value}-hint">${s.hint}</p>
  </div>`,
  )}
</fieldset>`;
}

function expiryField(value: string, errors: FormErrors): SafeHtml {
  const id = fieldId('expires_in_days');
  const error = errors.fields.expires_in_days;
  return html`<div class="field${error ? ' field-invalid' : ''}">
  <label for="${id}">${LABELS.expires_in_days}</label>
  ${error ? html`<p class="field-error" id="${id}-error"><span class="visually-hidden">Error: </span>${error}</p>` : ''}
  <select id="${id}" name="expires_in_days"${error ? html` aria-describedby="${id}-error" aria-invalid="true"` : ''}>
    ${EXPIRIES.map((d) => html`<option value="${String(d)}"${String(d) === value ? html` selected` : ''}>${d} days${d === 90 ? ' (the default)' : d === 365 ? ' (the longest)' : ''}</option>`)}
  </select>
</div>`;
}

function tokenItem(t: TokenRow, csrf: string): SafeHtml {
  const ended = t.revoked_at ? `${ENDED_BECAUSE[t.revoked_reason ?? ''] ?? 'revoked'} on ${day(t.revoked_at)}` : new Date(t.expires_at) <= new Date() ? `expired on ${day(t.expires_at)}` : null;
  return html`<li class="token-item">
  <h3>${t.name}</h3>
  <dl class="details">
    <dt>Token</dt><dd><code>${t.prefix}…</code></dd>
    <dt>Scope</dt><dd>${t.scope}</dd>
    <dt>Made</dt><dd>${day(t.created_at)}</dd>
    <dt>${ended ? 'Ended' : 'Expires'}</dt><dd>${ended ?? day(t.expires_at)}</dd>
    <dt>Last used</dt><dd>${t.last_used_at ? `${dateTime(t.last_used_at)}${t.last_used_ip ? ` from ${t.last_used_ip}` : ''}` : 'never'}</dd>
  </dl>
  ${
    ended
      ? ''
      : postForm(
          `${PATH}/${t.id}/revoke`,
          csrf,
          html`<button type="submit" class="button button-danger">Revoke<span class="visually-hidden"> the token ${t.name}</span></button>`,
          html` data-confirm="${`Revoke the token "${t.name}"? Programs using it are refused from then on.`}"`,
        )
  }
</li>`;
}
