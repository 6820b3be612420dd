import { Arg, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { TermValidationService } from './term-validation.service.js';
import { TermValidation } from './term-validation.types.js';

/** Term validation (spec 2.3, 4.1). */
@Resolver()
export class TermValidationResolver {
  constructor(private readonly validation: TermValidationService) {}

  @Query(() => TermValidation, {
    description:
      'Checks values against the vocabularies. Valid: the code or label of an active term (case- and accent-insensitive). Deprecated terms are reported with their replacement; unrecognized values get up to five suggestions.',
  })
  @Access(AccessClass.Public)
  async termValidation(
    @Arg('terms', () => [String]) terms: string[],
    @Arg('vocabulary', () => String, { nullable: true, description: 'check against one vocabulary; all when absent' }) vocabulary?: string,
  ): Promise<TermValidation> {
    const report = await this.validation.validate(terms, vocabulary);
    return {
      valid: report.valid,
      deprecated: report.deprecated,
      unrecognized: report.unrecognized,
      results: report.results.map((r) => ({
        input: r.input,
        status: r.status,
        matched_by: r.matchedBy,
        term: r.term,
        replaced_by: r.replacedBy,
        suggestions: r.suggestions,
      })),
      suggestions_omitted: report.suggestionsOmitted,
    };
  }
}
