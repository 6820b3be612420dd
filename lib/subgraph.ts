import type { FastifyBaseLogger } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import type { Config, SubgraphName } from './config.js';
import type { Stores } from './stores.js';
import type { Clock } from './clock.js';
import type { JobKind } from './jobs/job-kind.js';
import { buildFederatedSchema, type FederatedSchema } from '../schema/federation.js';
import { pingResolver } from '../schema/health.types.js';

/** What a subgraph gets to build its services: configuration, the opened stores, a clock and a logger. */
export interface SubgraphDeps {
  config: Config;
  stores: Stores;
  clock: Clock;
  log: FastifyBaseLogger;
  /**
   * The API schema this cluster serves, composed from its enabled subgraphs: what its clients (and other clusters)
   * see. Set by the gateway, and by `npm run subgraph` from the same code.
   */
  apiSchema?: () => Promise<GraphQLSchema>;
}

/**
 * How a subgraph declares itself, once (docs/architecture.md, "Adding a subgraph"). `S` is what its `services`
 * factory builds; `H` the handle other subgraphs reach it through (`exports`).
 */
export interface SubgraphDefinition<S, H> {
  name: SubgraphName;
  /** Subgraphs whose onStart must have run first in the same process (their seed data is needed). */
  startsAfter?: readonly SubgraphName[];
  /** Builds every service of the subgraph: the one place they are wired. Called once per set of stores. */
  services(deps: SubgraphDeps): S | Promise<S>;
  /** The resolver instances, built with the services; the schema is built from their classes. */
  resolvers(services: S, deps: SubgraphDeps): object[];
  /** `__resolveReference` of the entities it owns, and other resolvers added after the type-graphql schema is built. */
  referenceResolvers?(services: S): GraphQLResolverMap<unknown>;
  /**
   * What other subgraphs may use of it: the only way they reach its data. `services` builds (once) on first call,
   * so a handle costs nothing until it is used.
   */
  exports?(services: () => Promise<S>, deps: SubgraphDeps): H;
  /** The kinds of job it runs on the jobs platform (lib/jobs): how to check, run and present each. */
  jobKinds?(services: S, deps: SubgraphDeps): readonly JobKind[];
  /**
   * Problems with this subgraph's settings that the environment's shape cannot show (a key that does not import, a
   * password that breaks the rules), each naming its variable. Checked before any store opens; start-up reports
   * them all at once.
   */
  checkConfig?(config: Config): Promise<string[]>;
  /** Seeds or prepares the subgraph's data on start-up (idempotent). */
  onStart?(services: S, deps: SubgraphDeps): Promise<void>;
  /**
   * Stops what onStart started, before the stores close; called with the same deps as onStart, in the reverse
   * order. Should end within a bounded time.
   */
  onStop?(services: S, deps: SubgraphDeps): Promise<void>;
  /** Re-applies the subgraph's shipped seed data (npm run seed; idempotent), reporting progress line by line. */
  seed?(services: S, deps: SubgraphDeps, onProgress: (message: string) => void): Promise<unknown>;
}

/** A defined subgraph, as the host and other subgraphs use it. */
export interface Subgraph<S = unknown, H = unknown> {
  readonly name: SubgraphName;
  readonly startsAfter: readonly SubgraphName[];
  /** Its services over `deps.stores`, built once per set of stores whoever asks first. */
  services(deps: SubgraphDeps): Promise<S>;
  /** Its handle for other subgraphs over `deps.stores` (one per set of stores). */
  use(deps: SubgraphDeps): H;
  /** Its schema (shared by the apps of a process) and the resolvers this set of stores runs it on. */
  buildSchema(deps: SubgraphDeps): Promise<FederatedSchema>;
  jobKinds(deps: SubgraphDeps): Promise<readonly JobKind[]>;
  checkConfig(config: Config): Promise<string[]>;
  onStart(deps: SubgraphDeps): Promise<void>;
  onStop(deps: SubgraphDeps): Promise<void>;
  /** Undefined when the subgraph ships no seed data. */
  readonly seed?: (deps: SubgraphDeps, onProgress: (message: string) => void) => Promise<unknown>;
}

/** The handle type of a defined subgraph. */
export type HandleOf<T> = T extends Subgraph<unknown, infer H> ? H : never;

// The logger each subgraph's child logger was made from: whoever reaches a subgraph first (the host, or another
// subgraph's services through a handle), its services log as that subgraph, once.
const parents = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

/** `deps` with a logger of the subgraph's own (`{ subgraph: name }`), made from the host's whatever `deps.log` is. */
function ownDeps(deps: SubgraphDeps, name: SubgraphName): SubgraphDeps {
  const root = parents.get(deps.log) ?? deps.log;
  const log = root.child({ subgraph: name });
  parents.set(log, root);
  return { ...deps, log };
}

/** Declares a subgraph (see SubgraphDefinition); its services and handle are memoized per set of stores. */
export function defineSubgraph<S, H = Record<string, never>>(def: SubgraphDefinition<S, H>): Subgraph<S, H> {
  const built = new WeakMap<Stores, Promise<S>>();
  const handles = new WeakMap<Stores, H>();
  const own = (deps: SubgraphDeps) => ownDeps(deps, def.name);
  const services = (deps: SubgraphDeps): Promise<S> => {
    let s = built.get(deps.stores);
    if (!s) {
      s = Promise.resolve().then(() => def.services(own(deps)));
      built.set(deps.stores, s);
      // A factory that failed (a store not reachable yet) is built again by the next caller.
      s.catch(() => built.get(deps.stores) === s && built.delete(deps.stores));
    }
    return s;
  };
  const seed = def.seed;
  return {
    name: def.name,
    startsAfter: def.startsAfter ?? [],
    services,
    use(deps) {
      if (!def.exports) throw new Error(`the ${def.name} subgraph exports nothing`);
      let h = handles.get(deps.stores);
      if (h === undefined) handles.set(deps.stores, (h = def.exports(() => services(deps), own(deps))));
      return h;
    },
    async buildSchema(deps) {
      const s = await services(deps);
      return buildFederatedSchema({ instances: def.resolvers(s, own(deps)), referenceResolvers: def.referenceResolvers?.(s) });
    },
    async jobKinds(deps) {
      return def.jobKinds ? def.jobKinds(await services(deps), own(deps)) : [];
    },
    async checkConfig(config) {
      return def.checkConfig ? def.checkConfig(config) : [];
    },
    async onStart(deps) {
      if (def.onStart) await def.onStart(await services(deps), own(deps));
    },
    async onStop(deps) {
      if (def.onStop) await def.onStop(await services(deps), own(deps));
    },
    seed: seed && (async (deps, onProgress) => seed(await services(deps), own(deps), onProgress)),
  };
}

/** The `<name>Ping` resolver every subgraph but federation lists first among its resolvers. */
export function pingOf(name: SubgraphName): object {
  return new (pingResolver(name) as new () => object)();
}
