import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorSummary, errorsFromMessage, field, hasErrors, noErrors, postForm, type FormErrors } from '../forms.js';
import { html } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import { sessionCookies } from '../session.js';

const LABELS = { display_name: 'Your name', email: 'Email address', password: 'Password' };

/** `/register`: a Regular account (registerAccount), signed in at once. */
export const registerPage: WebPage = {
  routes(scope, kit) {
    scope.get('/register', async (request, reply) => {
      if (stateOf(request).session.accessToken) return reply.redirect('/account', 303);
      return renderRegister(kit, request, reply, { display_name: '', email: '' }, noErrors());
    });

    scope.post('/register', async (request, reply) => {
      const form = request.body as Record<string, string | undefined>;
      const values = { display_name: (form.display_name ?? '').trim(), email: (form.email ?? '').trim() };
      const password = form.password ?? '';
      const errors = noErrors();
      if (!values.display_name) errors.fields.display_name = 'enter your name';
      if (!values.email) errors.fields.email = 'enter your email address';
      if (!password) errors.fields.password = 'choose a password';
      if (hasErrors(errors)) return renderRegister(kit, request, reply, values, errors, 400);

      const registered = await kit.runAnonymous(
        request,
        'registerAccount',
        { ...values, password },
      );
      const error = registered.errors?.[0];
      if (error) {
        const { status, message } = errorOf(request, error, 'registration failed');
        // 409: the email is taken; the message says so.
        const failed = errorsFromMessage(message, { email: 'email', password: 'password', display_name: 'display_name' }, status === 409 ? 'email' : undefined);
        return renderRegister(kit, request, reply, values, failed, status);
      }
      const login = await kit.runAnonymous(request, 'login', {
        email: values.email,
        password,
      });
      if (login.errors?.[0]) {
        // The account exists; only the automatic sign-in failed (a throttle, say).
        return kit.redirectWithFlash(reply, '/sign-in', { kind: 'alert', message: `Your account was created, but signing in failed: ${errorOf(request, login.errors[0], 'sign-in after registration failed').message}` });
      }
      reply.header('set-cookie', sessionCookies(login.data!.login, kit.secureCookies));
      return kit.redirectWithFlash(reply, '/account', { kind: 'status', message: 'Your account is ready, and you are signed in.' });
    });
  },
};

function renderRegister(kit: WebKit, request: FastifyRequest, reply: FastifyReply, values: { display_name: string; email: string }, errors: FormErrors, status = 200): FastifyReply {
  const { csrf } = stateOf(request);
  const body = html`<h1>Create an account</h1>
<p>A new account is a Regular account. Verifying your institution afterwards makes it Academic (see your account page).</p>
${errorSummary(errors, LABELS)}
${postForm(
  '/register',
  csrf,
  html`${field({ name: 'display_name', label: LABELS.display_name, autocomplete: 'name', value: values.display_name, required: true, maxlength: 100, hint: 'Shown on your public profile.' }, errors)}
${field({ name: 'email', label: LABELS.email, type: 'email', autocomplete: 'email', value: values.email, required: true }, errors)}
${field({ name: 'password', label: LABELS.password, type: 'password', autocomplete: 'new-password', required: true, minlength: 8, hint: 'At least 8 characters, and not your email address.' }, errors)}
<button type="submit" class="button">Create account</button>`,
  html` class="stack"`,
)}
<p>Already registered? <a href="/sign-in">Sign in</a>.</p>`;
  return kit.render(request, reply, { title: hasErrors(errors) ? 'Error: Create an account' : 'Create an account', body }, status);
}
