/* JobStore.lockOwner */ select pg_advisory_xact_lock(hashtext($1));

/* JobStore.countActive */ select count(*) as n from "query"."jobs" j where j.owner_id = $1 and j.status in ('queued', 'running');

/* JobStore.insert */ insert into "query"."jobs" as j (id, owner_id, kind, status, input, saved_query_id, attempts, max_attempts, progress, created_at)
        values ($1, $2, $3, 'queued', $4::jsonb, $5, 0, $6, 0, clock_timestamp())
        returning j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at;

/* JobStore.get */ select j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at from "query"."jobs" j where j.id = $1;

/* JobStore.listByOwner */ select j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at, count(*) over () as total from "query"."jobs" j where j.owner_id = $1 and j.status = any($2::text[])
      order by j.created_at desc, j.id desc limit $3 offset $4;

/* JobStore.lockClaims */ select pg_advisory_xact_lock(hashtext('query.jobs:claim'));

/* JobStore.claim */ with running as (
            select r.owner_id, count(*) as n from "query"."jobs" r where r.status = 'running' group by r.owner_id
          ),
          turns as (
            select q.id, q.created_at,
                   coalesce(running.n, 0) + row_number() over (partition by q.owner_id order by q.created_at, q.id) as turn
            from "query"."jobs" q left join running on running.owner_id = q.owner_id
            where q.status = 'queued' and q.kind = any($1::text[])
          ),
          picked as (
            select t.id, t.turn from turns t
            where t.turn <= $2
            order by t.turn, t.created_at, t.id
            limit $3
          ),
          locked as (
            select c.id, picked.turn from "query"."jobs" c join picked on picked.id = c.id
            where c.status = 'queued'
            for update of c skip locked
          )
          update "query"."jobs" j
          set status = 'running', attempts = j.attempts + 1, worker_id = $4, started_at = clock_timestamp(), heartbeat_at = clock_timestamp(), progress = 0
          from locked
          where j.id = locked.id
          returning j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at, locked.turn;

/* JobStore.heartbeat */ with held as (
          select h.id, h.attempt from unnest($1::uuid[], $2::int[]) as h(id, attempt)
        ),
        beat as (
          update "query"."jobs" j set heartbeat_at = clock_timestamp()
          from held
          where j.id = held.id and j.attempts = held.attempt and j.status = 'running' and j.worker_id = $3
          returning j.id
        )
        select held.id, j.status from held left join "query"."jobs" j on j.id = held.id
        where held.id not in (select id from beat);

/* JobStore.progress */ update "query"."jobs" j set progress = $1, progress_message = $2, heartbeat_at = clock_timestamp()
        where j.id = $3 and j.attempts = $4 and j.status = 'running' and j.worker_id = $5
        returning j.id;

/* JobStore.succeed */ update "query"."jobs" j
        set status = 'succeeded', progress = 1, finished_at = clock_timestamp(), heartbeat_at = clock_timestamp(), error = null,
            result_key = $1, result_bytes = $2, result_rows = $3,
            result_sha256 = $4, result_meta = $5::jsonb
        where j.id = $6 and j.attempts = $7 and j.status = 'running' and j.worker_id = $8
        returning j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at;

/* JobStore.fail */ update "query"."jobs" j set status = 'failed', error = $1, finished_at = clock_timestamp(), heartbeat_at = clock_timestamp()
        where j.id = $2 and j.attempts = $3 and j.status = 'running' and j.worker_id = $4
        returning j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at;

/* JobStore.cancel */ with target as (
          select t.id, t.status from "query"."jobs" t where t.id = $1 and t.status in ('queued', 'running') for update
        )
        update "query"."jobs" j set status = 'cancelled', finished_at = clock_timestamp()
        from target
        where j.id = target.id
        returning j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at, target.status as previous;

/* JobStore.delete */ delete from "query"."jobs" j where j.id = $1 and j.status in ('succeeded', 'failed', 'cancelled') returning j.id, j.owner_id, j.kind, j.status, j.input, j.saved_query_id, j.attempts, j.max_attempts, j.progress, j.progress_message, j.error, j.worker_id, j.heartbeat_at, j.result_key, j.result_bytes, j.result_rows, j.result_sha256, j.result_meta, j.created_at, j.started_at, j.finished_at;

/* JobStore.recoverExpired */ with expired as (
          select e.id, e.worker_id from "query"."jobs" e
          where e.status = 'running' and e.heartbeat_at < clock_timestamp() - $1::int * interval '1 millisecond'
            and not (e.worker_id is not distinct from $2 and e.id = any($3::uuid[]))
          for update skip locked
        )
        update "query"."jobs" j
        set status = case when j.attempts < j.max_attempts then 'queued' else 'failed' end,
            progress = case when j.attempts < j.max_attempts then 0 else j.progress end,
            progress_message = case when j.attempts < j.max_attempts then 'retried after ' || case when expired.worker_id is not distinct from $4 then 'its outcome could not be recorded' else 'its worker stopped' end || ' (attempt ' || j.attempts || ' of ' || j.max_attempts || ')' else j.progress_message end,
            error = case when j.attempts < j.max_attempts then null
              else (case when expired.worker_id is not distinct from $5 then 'its outcome could not be recorded' else 'the worker running this job stopped' end) || ' (attempt ' || j.attempts || ' of ' || j.max_attempts || ')' end,
            finished_at = case when j.attempts < j.max_attempts then null else clock_timestamp() end,
            worker_id = case when j.attempts < j.max_attempts then null else j.worker_id end,
            heartbeat_at = null
        from expired
        where j.id = expired.id
        returning j.id, j.owner_id, j.kind, j.status, j.attempts, j.max_attempts, expired.worker_id, j.progress_message, j.error;
