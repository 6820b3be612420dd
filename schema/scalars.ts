import { GraphQLScalarType } from 'graphql';
import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import { BadInput } from '../lib/errors.js';

/**
 * `scalar` with its input coercion's refusals as BAD_USER_INPUT: graphql-js passes a GraphQLError thrown by
 * parseValue or parseLiteral on as it is (wrapped for a variable, with its extensions), and one without a code
 * would be answered as a fault. Serialising stays as it is: a value the service cannot serialise is its own fault.
 */
export function refusingAsBadInput(scalar: GraphQLScalarType): GraphQLScalarType {
  const config = scalar.toConfig();
  const refused = (e: unknown) => (e instanceof BadInput ? e : new BadInput(e instanceof Error ? e.message : String(e)));
  return new GraphQLScalarType({
    ...config,
    parseValue(value) {
      try {
        return config.parseValue(value);
      } catch (e) {
        throw refused(e);
      }
    },
    parseLiteral(ast, variables) {
      try {
        return config.parseLiteral(ast, variables);
      } catch (e) {
        throw refused(e);
      }
    },
  });
}

export const DateTimeScalar = refusingAsBadInput(DateTimeResolver);
export const JSONObjectScalar = refusingAsBadInput(JSONObjectResolver);

/** Scalars shared by every subgraph; composition requires them to be identical everywhere. */
export const scalarsMap = [{ type: Date, scalar: DateTimeScalar }];
