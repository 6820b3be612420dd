import { DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';

export { DateTimeResolver as DateTimeScalar, JSONObjectResolver as JSONObjectScalar };

/** Scalars shared by every subgraph; composition requires them to be identical everywhere. */
export const scalarsMap = [{ type: Date, scalar: DateTimeResolver }];
