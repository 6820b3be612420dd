import { Field, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../../schema/scalars.js';
import { Creator, Publication, RowCountsView } from '../dataset.types.js';
import { DatasetCitation } from '../export.types.js';
import { CatalogueEntry } from './search.types.js';

@ObjectType({ description: 'A published version as anyone may see it: its number, date and note (its files are the data).' })
export class PublishedVersionSummary {
  @Field(() => Int)
  version!: number;

  @Field(() => Date)
  published_at!: Date;

  @Field(() => String, { nullable: true, description: 'what changed in this version' })
  note!: string | null;
}

@ObjectType({
  description:
    "A published dataset's public record, for everyone: what search shows of it, its creators, versions, citations and schema.org JSON-LD. A restricted dataset's counts only for those who may read its data; never files, checksums or download URLs.",
})
export class PublishedDataset extends CatalogueEntry {
  @Field(() => [Creator])
  creators!: Creator[];

  @Field(() => Publication, { nullable: true })
  related_publication!: Publication | null;

  @Field(() => String, { nullable: true, description: "the dataset's own DOI, when assigned" })
  doi!: string | null;

  @Field(() => RowCountsView, { nullable: true, description: 'row counts of the current version; null unless the caller may read the data' })
  counts!: RowCountsView | null;

  @Field(() => Boolean, { description: 'whether the caller may read the data (files, rows, downloads: the Academic dataset routes)' })
  can_read_data!: boolean;

  @Field(() => String, { description: "the dataset's page, which the citations and the JSON-LD name as its URL" })
  page_url!: string;

  @Field(() => String, { description: "the dataset's record (GET, Academic)" })
  url!: string;

  @Field(() => Date, { description: 'first publication here' })
  published_at!: Date;

  @Field(() => Date, { description: 'publication of the current version' })
  version_published_at!: Date;

  @Field(() => [PublishedVersionSummary], { description: 'every published version, newest first' })
  versions!: PublishedVersionSummary[];

  @Field(() => String, { description: 'the citation of the current version as one line of a reference list (APA style)' })
  citation!: string;

  @Field(() => [DatasetCitation], { description: 'the citation of the current version as BibTeX and RIS files' })
  citations!: DatasetCitation[];

  @Field(() => JSONObjectScalar, { description: 'schema.org Dataset of the current version as JSON-LD, without distribution' })
  json_ld!: Record<string, unknown>;
}
