/* IngestProgressStore.current */ select dataset_id, version, filename, kind, stage, rows, bytes_read, bytes_total, started_by, started_at, heartbeat_at from "neurodata"."dataset_ingests" where dataset_id = $1;

/* IngestProgressStore.claim */ insert into "neurodata"."dataset_ingests" (dataset_id, version, filename, kind, stage, rows, bytes_read, bytes_total, started_by, started_at, heartbeat_at)
            values ($1, $2, $3, $4, 'reading', 0, 0, $5, $6, $7, $8)
            on conflict (dataset_id) do nothing returning *;

/* IngestProgressStore.current */ select dataset_id, version, filename, kind, stage, rows, bytes_read, bytes_total, started_by, started_at, heartbeat_at from "neurodata"."dataset_ingests" where dataset_id = $1;

/* IngestProgressStore.current */ select dataset_id, version, filename, kind, stage, rows, bytes_read, bytes_total, started_by, started_at, heartbeat_at from "neurodata"."dataset_ingests" where dataset_id = $1;

/* IngestProgressStore.claim */ update "neurodata"."dataset_ingests" set version = $1, filename = $2, kind = $3, stage = 'reading', rows = 0,
              bytes_read = 0, bytes_total = $4, started_by = $5, started_at = $6, heartbeat_at = $7
            where dataset_id = $8 and heartbeat_at = $9 returning *;

/* IngestProgressStore.report */ update "neurodata"."dataset_ingests" set stage = $1, rows = $2, bytes_read = $3, heartbeat_at = $4
        where dataset_id = $5 and filename = $6;

/* DraftDerivationStore.markStale */ insert into "neurodata"."draft_derivations" (dataset_id, version, stale_since) values ($1, $2, $3)
        on conflict (dataset_id) do update set version = excluded.version, stale_since = least("neurodata"."draft_derivations".stale_since, excluded.stale_since);

/* DraftDerivationStore.staleVersion */ select version from "neurodata"."draft_derivations" where dataset_id = $1;
