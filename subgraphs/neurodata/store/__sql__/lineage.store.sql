/* LineageStore.insert */ insert into "neurodata"."lineage_links" (id, dataset_id, source_dataset_id, source_version, source_title, relation, description, created_by, created_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        returning id, dataset_id, source_dataset_id, source_version, source_title, relation, description, created_by, created_at;

/* LineageStore.upstream */ select id, dataset_id, source_dataset_id, source_version, source_title, relation, description, created_by, created_at from "neurodata"."lineage_links" where dataset_id = $1 order by created_at;

/* LineageStore.downstream */ select id, dataset_id, source_dataset_id, source_version, source_title, relation, description, created_by, created_at from "neurodata"."lineage_links" where source_dataset_id = $1 order by created_at;

/* LineageStore.reaches */ with recursive up(id) as (
          select $1::uuid
          union
          select l.source_dataset_id from "neurodata"."lineage_links" l join up on l.dataset_id = up.id
        )
        select 1 from up where id = $2::uuid limit 1;
