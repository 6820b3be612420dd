/* AccessRequestStore.upsert */ insert into "neurodata"."access_requests" as a (id, dataset_id, requester_id, status, message, created_at, updated_at)
        values ($1, $2, $3, 'pending', $4, $5, $6)
        on conflict (dataset_id, requester_id) do update set
          status = case when a.status = 'denied' then 'pending' else a.status end,
          message = case when a.status = 'denied' then excluded.message else a.message end,
          response_message = case when a.status = 'denied' then null else a.response_message end,
          decided_by = case when a.status = 'denied' then null else a.decided_by end,
          decided_at = case when a.status = 'denied' then null else a.decided_at end,
          updated_at = case when a.status = 'denied' then excluded.updated_at else a.updated_at end
        returning id, dataset_id, requester_id, status, message, response_message, decided_by, decided_at, created_at, updated_at;

/* AccessRequestStore.statusesFor */ select dataset_id, status from "neurodata"."access_requests"
        where requester_id = $1 and dataset_id = any($2::uuid[]);

/* AccessRequestStore.forDataset */ select id, dataset_id, requester_id, status, message, response_message, decided_by, decided_at, created_at, updated_at from "neurodata"."access_requests" where dataset_id = $1
        order by (status = 'pending') desc, created_at desc;

/* AccessRequestStore.decide */ update "neurodata"."access_requests" set status = $1, decided_by = $2,
        response_message = $3, decided_at = $4, updated_at = $5 where id = $6 returning id, dataset_id, requester_id, status, message, response_message, decided_by, decided_at, created_at, updated_at;
