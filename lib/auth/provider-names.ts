import type { LoginProviderName } from '../config.js';

/**
 * How the service names each login provider, in one place for the API's messages, the route table's summaries and
 * the pages. `name` is the provider as a word within a sentence ("signed in with single sign-on", "your GitLab
 * account"); `flow` is what the provider's flow is called in messages ("the GitLab login provider cannot be
 * reached"); `provider` describes it in the REST documentation.
 */
export const PROVIDER_NAMES: Record<LoginProviderName, { name: string; flow: string; provider: string }> = {
  institutional: { name: 'institutional login', flow: 'institutional login', provider: 'the institutional identity provider (OpenID Connect)' },
  orcid: { name: 'ORCID', flow: 'ORCID iD linking', provider: 'ORCID (OpenID Connect)' },
  social: { name: 'single sign-on', flow: 'social login', provider: 'the general social login provider (OpenID Connect)' },
  gitlab: { name: 'GitLab', flow: 'GitLab login', provider: 'the GitLab-style code-hosting provider (OpenID Connect, self-hosted instances)' },
  github: { name: 'GitHub', flow: 'GitHub login', provider: 'the GitHub-style code-hosting provider (OAuth 2.0)' },
};

/** A provider's name as a label of its own (a list item, a heading): its first letter upper-case. */
export const providerLabel = (provider: string): string => {
  const name = PROVIDER_NAMES[provider as LoginProviderName]?.name ?? provider;
  return name.charAt(0).toUpperCase() + name.slice(1);
};
