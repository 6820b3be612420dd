import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType()
export class DownloadUrlsInput {
  @Field(() => String, { description: 'dataset id or slug, optionally with @version' })
  dataset_id!: string;

  @Field(() => String, { nullable: true, description: 'latest (default), v1, 2, draft' })
  version?: string | null;

  @Field(() => [ID], { nullable: true, description: 'only these files (default: every file of the version)' })
  asset_ids?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'URL lifetime in seconds, at most DOWNLOAD_URL_TTL_SECONDS (the default)' })
  expires_in?: number | null;
}

@ObjectType()
export class DownloadUrl {
  @Field(() => ID)
  asset_id!: string;

  @Field(() => String)
  filename!: string;

  @Field(() => String)
  media_type!: string;

  @Field(() => Float)
  size!: number;

  @Field(() => String)
  sha256!: string;

  @Field(() => String, { description: 'GET it without a token before expires_at' })
  url!: string;
}

@ObjectType()
export class DownloadUrls {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => String, { description: 's3 (pre-signed) | service (signed by this service)' })
  signed_by!: string;

  @Field(() => [DownloadUrl])
  urls!: DownloadUrl[];
}

@ObjectType({ description: 'What a signed download URL leads to, once its grant holds (used by GET /v1/neurodata/files).' })
export class OpenedDownload {
  @Field(() => String, { description: 'the object in object storage' })
  object_key!: string;

  @Field(() => String, { nullable: true, description: 'the name to save it under' })
  filename!: string | null;
}
