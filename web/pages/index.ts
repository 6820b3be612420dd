import type { WebPage } from '../kit.js';
import { accountPage } from './account.js';
import { adminAccountsPage } from './admin-accounts.js';
import { cataloguePage } from './catalogue.js';
import { datasetPage } from './dataset.js';
import { jobsPage } from './jobs.js';
import { passwordPage } from './password.js';
import { registerPage } from './register.js';
import { signInPage } from './sign-in.js';
import { tokensPage } from './tokens.js';

/**
 * Every page module, in the order of their entries in the header's navigation (the one list of them; Sign in and
 * Sign out come last, from the layout). A page is a module of this folder exporting a `WebPage`: its routes, and its
 * navigation entries if it has any.
 */
export const PAGES: readonly WebPage[] = [cataloguePage, datasetPage, jobsPage, tokensPage, accountPage, adminAccountsPage, passwordPage, signInPage, registerPage];
