/* SavedQueryStore.insert */ insert into "query"."saved_queries" (id, owner_id, name, description, syql, parameters, created_at, updated_at)
        values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8);

/* SavedQueryStore.find */ select id, owner_id, name, description, syql, parameters, last_job_id, previous_job_id, last_run_at, created_at, updated_at from "query"."saved_queries" where id = $1;

/* SavedQueryStore.list */ select id, owner_id, name, description, syql, parameters, last_job_id, previous_job_id, last_run_at, created_at, updated_at, count(*) over () as total from "query"."saved_queries" where owner_id = $1
      order by updated_at desc, id limit $2 offset $3;

/* SavedQueryStore.update */ update "query"."saved_queries" set
            name = coalesce($1, name),
            description = case when $2 then $3 else description end,
            syql = coalesce($4, syql),
            parameters = coalesce($5::jsonb, parameters),
            updated_at = $6
          where id = $7;

/* SavedQueryStore.find */ select id, owner_id, name, description, syql, parameters, last_job_id, previous_job_id, last_run_at, created_at, updated_at from "query"."saved_queries" where id = $1;

/* SavedQueryStore.recordRun */ update "query"."saved_queries" set previous_job_id = last_job_id, last_job_id = $1, last_run_at = $2 where id = $3;
