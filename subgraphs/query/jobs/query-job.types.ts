import { ArgsType, Field } from 'type-graphql';
import { JSONObjectScalar } from '../../../schema/scalars.js';

@ArgsType()
export class SubmitJobArgs {
  @Field(() => String, { nullable: true, description: 'the SyQL text (or give saved_query_id)' })
  query?: string | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'values of its $parameters' })
  parameters?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true, description: 'run a saved query instead (its text and parameters, on the versions its references name now)' })
  saved_query_id?: string | null;
}

