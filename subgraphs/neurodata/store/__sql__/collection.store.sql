/* CollectionStore.insert */ insert into "neurodata"."collections" (id, owner_id, title, description, visibility, created_at, updated_at)
        values ($1, $2, $3, $4, $5, $6, $7);

/* CollectionStore.find */ select c.id, c.owner_id, c.title, c.description, c.visibility, c.created_at, c.updated_at,
  coalesce((select jsonb_agg(i.dataset_id order by i.added_at, i.dataset_id) from neurodata.collection_items i where i.collection_id = c.id), '[]'::jsonb) as dataset_ids from "neurodata"."collections" c where c.id = $1;

/* CollectionStore.list */ select c.id, c.owner_id, c.title, c.description, c.visibility, c.created_at, c.updated_at,
  coalesce((select jsonb_agg(i.dataset_id order by i.added_at, i.dataset_id) from neurodata.collection_items i where i.collection_id = c.id), '[]'::jsonb) as dataset_ids, count(*) over () as total from "neurodata"."collections" c where (c.owner_id = $1 or c.visibility = 'public')
      order by c.created_at desc, c.id desc limit $2 offset $3;

/* CollectionStore.list */ select c.id, c.owner_id, c.title, c.description, c.visibility, c.created_at, c.updated_at,
  coalesce((select jsonb_agg(i.dataset_id order by i.added_at, i.dataset_id) from neurodata.collection_items i where i.collection_id = c.id), '[]'::jsonb) as dataset_ids, count(*) over () as total from "neurodata"."collections" c where true
      order by c.created_at desc, c.id desc limit $1 offset $2;

/* CollectionStore.addItem */ insert into "neurodata"."collection_items" (collection_id, dataset_id, added_by, added_at)
        values ($1, $2, $3, $4) on conflict do nothing;

/* CollectionStore.touch */ update "neurodata"."collections" set updated_at = $1 where id = $2;

/* CollectionStore.removeItem */ delete from "neurodata"."collection_items" where collection_id = $1 and dataset_id = $2 returning dataset_id;

/* CollectionStore.touch */ update "neurodata"."collections" set updated_at = $1 where id = $2;
