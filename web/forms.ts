import { html, raw, type SafeHtml } from './html.js';
import { csrfField } from './layout.js';

/** What a submitted form got wrong: messages per field name, and one for the whole form. */
export interface FormErrors {
  fields: Record<string, string>;
  form?: string;
}

export const noErrors = (): FormErrors => ({ fields: {} });
export const hasErrors = (e: FormErrors): boolean => Boolean(e.form) || Object.keys(e.fields).length > 0;

export interface FieldSpec {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  autocomplete?: string;
  /** Echoed back after a failed submission; never for passwords. */
  value?: string;
  hint?: string;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
}

/**
 * One labelled input. Its hint and its error are tied to it with aria-describedby, and an input in error is
 * aria-invalid, so a screen reader reads the message with the field.
 */
export function field(spec: FieldSpec, errors: FormErrors): SafeHtml {
  const id = fieldId(spec.name);
  const error = errors.fields[spec.name];
  const described = [spec.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  const type = spec.type ?? 'text';
  return html`<div class="field${error ? ' field-invalid' : ''}">
  <label for="${id}">${spec.label}</label>
  ${spec.hint ? html`<p class="hint" id="${id}-hint">${spec.hint}</p>` : ''}
  ${error ? html`<p class="field-error" id="${id}-error"><span class="visually-hidden">Error: </span>${sentence(error)}</p>` : ''}
  <input id="${id}" name="${spec.name}" type="${type}"${spec.autocomplete ? html` autocomplete="${spec.autocomplete}"` : ''}${
    type !== 'password' && spec.value ? html` value="${spec.value}"` : ''
  }${spec.required ? raw(' required') : ''}${spec.minlength ? html` minlength="${spec.minlength}"` : ''}${spec.maxlength ? html` maxlength="${spec.maxlength}"` : ''}${
    described ? html` aria-describedby="${described}"` : ''
  }${error ? raw(' aria-invalid="true"') : ''}>
</div>`;
}

/**
 * The summary above a form that failed: focused when the page loads (autofocus, and site.js for browsers that
 * ignore it on a non-control), listing each problem as a link to its field.
 */
export function errorSummary(errors: FormErrors, labels: Record<string, string>): SafeHtml {
  if (!hasErrors(errors)) return html``;
  const items = [
    ...(errors.form ? [html`<li>${sentence(errors.form)}</li>`] : []),
    ...Object.entries(errors.fields).map(([name, message]) => html`<li><a href="#${fieldId(name)}">${labels[name] ?? name}: ${message}</a></li>`),
  ];
  return html`<div class="error-summary" role="alert" tabindex="-1" autofocus data-error-summary aria-labelledby="error-summary-title">
  <h2 id="error-summary-title">There is a problem</h2>
  <ul>${items}</ul>
</div>`;
}

/** A POST form with its CSRF field. */
export function postForm(action: string, csrf: string, inner: SafeHtml, attrs: SafeHtml = html``): SafeHtml {
  return html`<form method="post" action="${action}" novalidate${attrs}>${csrfField(csrf)}${inner}</form>`;
}

/** The service's messages start in lower case (they continue a field name); on their own they start a sentence. */
export const sentence = (message: string): string => message.charAt(0).toUpperCase() + message.slice(1);

export const fieldId = (name: string): string => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/**
 * Assigns an operation's error message to the field it names (the identity subgraph's messages start with the
 * argument, `password: …`), or to the whole form.
 */
export function errorsFromMessage(message: string, fieldOf: Record<string, string>, fallbackField?: string): FormErrors {
  const match = /^([a-z_]+):\s*(.*)$/s.exec(message);
  if (match && fieldOf[match[1]!]) return { fields: { [fieldOf[match[1]!]!]: match[2]! } };
  if (fallbackField) return { fields: { [fallbackField]: message } };
  return { fields: {}, form: message };
}
