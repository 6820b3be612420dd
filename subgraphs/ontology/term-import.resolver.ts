import { Arg, Mutation, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { TermImportService } from './term-import.service.js';
import { TermImportReport } from './term-import.types.js';

/** Bulk CSV import (spec 2.3, 4.4, 4.5). */
@Resolver()
export class TermImportResolver {
  constructor(private readonly imports: TermImportService) {}

  @Mutation(() => TermImportReport, {
    description:
      'Imports terms from CSV in one transaction: columns code,label,uri,parent_code (with vocabulary), or the older name,vocabulary,parent_name,description. Existing codes are updated; a bad row rejects the whole file.',
  })
  @Access(AccessClass.SuperUser)
  async importTerms(
    @Arg('csv_data', () => String, { description: 'CSV text with a header row' }) csvData: string,
    @Arg('vocabulary', () => String, { nullable: true, description: 'required unless the rows carry a vocabulary column' }) vocabulary?: string,
  ): Promise<TermImportReport> {
    return this.imports.importCsv({ vocabulary, csvData });
  }
}
