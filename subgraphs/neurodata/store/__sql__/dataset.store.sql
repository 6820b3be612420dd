/* DatasetStore.insert */ insert into "neurodata"."datasets" as d (id, slug, title, metadata, owner_id, maintainer_ids, visibility, status, latest_version, draft_version, created_at, updated_at)
        values ($1, $2, $3, $4::jsonb, $5, $6::uuid[],
                $7, 'draft', null, 1, $8, $9)
        returning d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at;

/* DatasetStore.find */ select d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at from "neurodata"."datasets" d where d.id = $1;

/* DatasetStore.find */ select d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at from "neurodata"."datasets" d where (d.slug = $1 or d.id = (select a.dataset_id from "neurodata"."dataset_slug_aliases" a where a.slug = $2)) order by (d.slug = $3) desc limit 1 for update;

/* DatasetStore.findMany */ select d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at from "neurodata"."datasets" d where d.id = any($1::uuid[]);

/* DatasetStore.list */ select d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at, count(*) over () as total from "neurodata"."datasets" d where (d.status = 'published' or (d.owner_id = $1 or $2::uuid = any(d.maintainer_ids))) and d.visibility = $3
      order by d.created_at desc, d.id desc limit $4 offset $5;

/* DatasetStore.list */ select d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at, count(*) over () as total from "neurodata"."datasets" d where (d.owner_id = $1 or $2::uuid = any(d.maintainer_ids))
      order by d.created_at desc, d.id desc limit $3 offset $4;

/* DatasetStore.list */ select d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at, count(*) over () as total from "neurodata"."datasets" d where (d.owner_id = $1 or $2::uuid = any(d.maintainer_ids)) and d.draft_version is not null
      order by d.created_at desc, d.id desc limit $3 offset $4;

/* DatasetStore.update */ update "neurodata"."datasets" as d set updated_at = $1, metadata = $2::jsonb, title = $3, visibility = $4, maintainer_ids = $5::uuid[], slug = $6, draft_version = $7 where d.id = $8 returning d.id, d.slug, d.title, d.metadata, d.owner_id, d.maintainer_ids, d.visibility, d.status, d.latest_version, d.draft_version, d.created_at, d.updated_at, d.published_at;

/* DatasetStore.renameSlug */ update "neurodata"."datasets" as d set slug = $1, updated_at = $2 where d.id = $3;

/* DatasetStore.addSlugAlias */ insert into "neurodata"."dataset_slug_aliases" as a (slug, dataset_id, created_at) values ($1, $2, $3)
        on conflict (slug) do update set dataset_id = excluded.dataset_id, created_at = excluded.created_at;

/* DatasetStore.dropSlugAlias */ delete from "neurodata"."dataset_slug_aliases" a where a.slug = $1;

/* DatasetStore.versions */ select dataset_id, version, metadata, assets, row_counts, note, published_at, published_by from "neurodata"."dataset_versions" where dataset_id = $1 order by version desc;

/* DatasetStore.version */ select dataset_id, version, metadata, assets, row_counts, note, published_at, published_by from "neurodata"."dataset_versions" where dataset_id = $1 and version = $2;

/* DatasetStore.latestMetadata */ select distinct on (dataset_id) dataset_id, metadata from "neurodata"."dataset_versions"
        where dataset_id = any($1::uuid[]) order by dataset_id, version desc;

/* DatasetStore.latestVersions */ select distinct on (dataset_id) dataset_id, version, metadata, row_counts from "neurodata"."dataset_versions"
        where dataset_id = any($1::uuid[]) order by dataset_id, version desc;

/* DatasetStore.assets */ select id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_at from "neurodata"."dataset_assets" where dataset_id = $1 and version = $2 order by filename;

/* DatasetStore.asset */ select id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_at from "neurodata"."dataset_assets" where dataset_id = $1 and id = $2;

/* DatasetStore.insertAsset */ insert into "neurodata"."dataset_assets" (id, dataset_id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_by, created_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                $11::jsonb, $12, $13)
        on conflict (dataset_id, version, filename) do update set
          kind = excluded.kind, media_type = excluded.media_type, size = excluded.size, sha256 = excluded.sha256,
          object_key = excluded.object_key, rows = excluded.rows, summary = excluded.summary,
          created_by = excluded.created_by, created_at = excluded.created_at, id = excluded.id
        returning id, version, filename, kind, media_type, size, sha256, object_key, rows, summary, created_at;

/* DatasetStore.events */ select id, dataset_id, activity, agent_id, version, details, at from "neurodata"."provenance_events" where dataset_id = $1 order by at, id;
