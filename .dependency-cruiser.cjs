/** Module boundaries of docs/architecture.md, checked in CI (npm run lint:boundaries). */
module.exports = {
  forbidden: [
    {
      name: 'rest-compat-only-executes-graphql',
      comment: 'The REST layer never imports a subgraph: it only executes GraphQL operations.',
      severity: 'error',
      from: { path: '^rest-compat/' },
      to: { path: '^subgraphs/' },
    },
    {
      name: 'subgraphs-meet-through-index',
      comment: "A subgraph reaches another only through that subgraph's index.ts exports (or federation).",
      severity: 'error',
      from: { path: '^subgraphs/([^/]+)/' },
      to: { path: '^subgraphs/(?!$1/)[^/]+/(?!index\\.ts$)' },
    },
    {
      name: 'resolvers-never-touch-stores',
      comment: 'Resolvers are thin: arguments -> service -> result. Stores and Drizzle belong to services.',
      severity: 'error',
      from: { path: '\\.resolver\\.ts$' },
      to: { path: ['/store/', 'node_modules/drizzle-orm'] },
    },
    {
      name: 'lib-is-shared-not-dependent',
      comment: 'lib/ is shared code; it never depends on a subgraph, the gateway, the REST layer or the pages.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(subgraphs|gateway|rest-compat|web)/' },
    },
    {
      name: 'lib-is-platform-not-domain',
      comment: 'lib/ is the platform (stores, errors, jobs, HTTP); the neuroscience that several parts share lives in domain/.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^domain/' },
    },
    {
      name: 'domain-is-shared-not-dependent',
      comment: 'domain/ is shared neuroscience (plots, morphology, triad classes); it uses lib/ only.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^(subgraphs|gateway|rest-compat|web|schema)/' },
    },
    {
      name: 'web-pages-only-execute-graphql',
      comment: 'The browser pages reach the service through GraphQL operations and rest-compat exports only, like a REST handler.',
      severity: 'error',
      from: { path: '^web/(?!test/)' },
      to: { path: '^(subgraphs|gateway|schema)/' },
    },
    {
      name: 'web-is-mounted-by-the-rest-layer',
      comment: "Only rest-compat/mount.ts mounts the pages; nothing else of the service depends on them.",
      severity: 'error',
      from: { path: '^(gateway|subgraphs|schema|rest-compat)/', pathNot: '^rest-compat/mount\\.ts$' },
      to: { path: '^web/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { pathNot: 'node_modules' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^node_modules|^data/|^seed/)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
