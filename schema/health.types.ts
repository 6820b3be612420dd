import { Directive, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../lib/access.js';

@ObjectType({ description: 'Liveness of one subgraph, answered by the subgraph itself.' })
@Directive('@shareable')
export class SubgraphPing {
  @Field(() => String)
  subgraph!: string;

  @Field(() => String, { description: 'always "ok" when the subgraph answers' })
  status!: string;

  @Field(() => Date)
  time!: Date;
}

/**
 * A resolver class with one root field, `<name>Ping`, so every subgraph has something to compose and the gateway
 * can tell which subgraphs answer.
 */
const pingResolvers = new Map<string, Function>();

/** The `<name>Ping` resolver class of a subgraph: one class per name, so its schema is built once per process. */
export function pingResolver(subgraph: string): Function {
  let cls = pingResolvers.get(subgraph);
  if (!cls) pingResolvers.set(subgraph, (cls = definePingResolver(subgraph)));
  return cls;
}

function definePingResolver(subgraph: string): Function {
  @Resolver()
  class PingResolver {
    // Nullable, so a subgraph that is down costs only its own field, not the whole response.
    @Query(() => SubgraphPing, { name: `${subgraph}Ping`, nullable: true, description: `Liveness of the ${subgraph} subgraph` })
    @Access(AccessClass.Public)
    ping(): SubgraphPing {
      return { subgraph, status: 'ok', time: new Date() };
    }
  }
  Object.defineProperty(PingResolver, 'name', { value: `${subgraph[0].toUpperCase()}${subgraph.slice(1)}PingResolver` });
  return PingResolver;
}
