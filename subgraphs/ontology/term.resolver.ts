import { Arg, Int, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { TermRecord, TermService, VocabularyRecord } from './term.service.js';
import { CreateTermInput, Term, TermPage, UpdateTermInput, Vocabulary } from './term.types.js';
import { rootLookup } from '../../lib/root-lookup.js';

export const toTerm = (t: TermRecord): Term => ({
  id: t.id,
  vocabulary: t.vocabulary,
  code: t.code,
  label: t.label,
  name: t.label,
  description: t.description,
  uri: t.uri,
  parent_id: t.parentId,
  metadata: t.metadata,
  synonyms: t.synonyms,
  status: t.status,
  deprecated: t.status === 'deprecated',
  replaced_by: t.replacedBy,
  deprecated_at: t.deprecatedAt,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
});

const toVocabulary = (v: VocabularyRecord): Vocabulary => ({
  name: v.name,
  description: v.description,
  term_count: v.termCount,
  deprecated_count: v.deprecatedCount,
});

/** Vocabularies and terms: public reads (spec 4.1), SuperUser writes (spec 4.4). */
@Resolver()
export class TermResolver {
  constructor(private readonly service: TermService) {}

  @Query(() => [Vocabulary], { description: 'Every vocabulary with its term counts.' })
  @Access(AccessClass.Public)
  async vocabularies(): Promise<Vocabulary[]> {
    return (await this.service.listVocabularies()).map(toVocabulary);
  }

  @Query(() => TermPage, {
    description:
      'Terms, filtered by vocabulary and text. q (or its older name search) matches codes, labels and synonyms, case- and accent-insensitively: exact code or label first, then synonyms, prefixes, then similar spellings. Deprecated terms are included, flagged deprecated with their replaced_by, unless include_deprecated=false.',
  })
  @Access(AccessClass.Public)
  async terms(
    @Arg('vocabulary', () => String, { nullable: true }) vocabulary?: string,
    @Arg('q', () => String, { nullable: true, description: 'text search over code, label and synonyms' }) q?: string,
    @Arg('search', () => String, { nullable: true, description: 'older name of q' }) search?: string,
    @Arg('include_deprecated', () => Boolean, { nullable: true, description: 'default true; false leaves deprecated terms out' }) includeDeprecated?: boolean,
    @Arg('limit', () => Int, { nullable: true, description: '1..1000, default 50' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: 'default 0' }) offset?: number,
  ): Promise<TermPage> {
    const page = await this.service.search({ vocabulary, q, search, includeDeprecated: includeDeprecated !== false, limit, offset });
    return { ...page, items: page.items.map(toTerm) };
  }

  @Query(() => Term, rootLookup('One term, active or deprecated.'))
  @Access(AccessClass.Public)
  async term(@Arg('id', () => ID) id: string): Promise<Term> {
    return toTerm(await this.service.get(id));
  }

  @Query(() => [Term], { description: 'Direct children of a term, by label; deprecated children are included, flagged, unless include_deprecated=false.' })
  @Access(AccessClass.Public)
  async termChildren(
    @Arg('id', () => ID) id: string,
    @Arg('include_deprecated', () => Boolean, { nullable: true, description: 'default true; false leaves deprecated terms out' }) includeDeprecated?: boolean,
  ): Promise<Term[]> {
    return (await this.service.children(id, includeDeprecated !== false)).map(toTerm);
  }

  @Query(() => [Term], { description: 'Ancestors of a term, nearest first: parent, grandparent, ..., root.' })
  @Access(AccessClass.Public)
  async termAncestors(@Arg('id', () => ID) id: string): Promise<Term[]> {
    return (await this.service.ancestors(id)).map(toTerm);
  }

  @Mutation(() => Term, { description: 'Creates a term (current or older form).' })
  @Access(AccessClass.SuperUser)
  async createTerm(@Arg('input', () => CreateTermInput) input: CreateTermInput): Promise<Term> {
    return toTerm(
      await this.service.create({
        vocabulary: input.vocabulary,
        code: input.code,
        label: input.label,
        name: input.name,
        parentId: input.parent_id,
        uri: input.uri,
        metadata: input.metadata,
        description: input.description,
        synonyms: input.synonyms,
      }),
    );
  }

  @Mutation(() => Term, { description: 'Changes a term (current or older form).' })
  @Access(AccessClass.SuperUser)
  async updateTerm(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateTermInput) input: UpdateTermInput): Promise<Term> {
    return toTerm(
      await this.service.update(id, {
        label: input.label,
        name: input.name,
        uri: input.uri,
        metadata: input.metadata,
        description: input.description,
        parentId: input.parent_id,
        synonyms: input.synonyms,
      }),
    );
  }

  @Mutation(() => Term, { description: 'Deprecates a term: it stays stored, flagged, with an optional replacement.' })
  @Access(AccessClass.SuperUser)
  async deprecateTerm(
    @Arg('id', () => ID) id: string,
    @Arg('replaced_by', () => ID, { nullable: true, description: 'an active term of the same vocabulary' }) replacedBy?: string,
  ): Promise<Term> {
    return toTerm(await this.service.deprecate(id, replacedBy));
  }
}
