/* BenchmarkStore.insert */ insert into "federation"."benchmarks" (id, run_id, cluster_id, operation, requests, concurrency, errors, min_ms, p50_ms, p99_ms, max_ms, mean_ms, requests_per_sec, started_at, duration_ms, our_version, their_version, actor_id) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
        $11, $12, $13, $14, $15, $16, $17, $18), ($19, $20, $21, $22, $23, $24, $25, $26, $27, $28,
        $29, $30, $31, $32, $33, $34, $35, $36);

/* BenchmarkStore.list */ select b.id, b.run_id, b.cluster_id, b.operation, b.requests, b.concurrency, b.errors, b.min_ms, b.p50_ms, b.p99_ms, b.max_ms, b.mean_ms, b.requests_per_sec, b.started_at, b.duration_ms, b.our_version, b.their_version, b.actor_id, c.name as cluster_name, count(*) over () as total from "federation"."benchmarks" b join "federation"."clusters" c on c.id = b.cluster_id where b.cluster_id = $1 and b.operation = $2 and b.started_at >= $3
      order by b.started_at desc, b.operation limit $4 offset $5;

/* BenchmarkStore.list */ select b.id, b.run_id, b.cluster_id, b.operation, b.requests, b.concurrency, b.errors, b.min_ms, b.p50_ms, b.p99_ms, b.max_ms, b.mean_ms, b.requests_per_sec, b.started_at, b.duration_ms, b.our_version, b.their_version, b.actor_id, c.name as cluster_name, count(*) over () as total from "federation"."benchmarks" b join "federation"."clusters" c on c.id = b.cluster_id where true
      order by b.started_at desc, b.operation limit $1 offset $2;

/* BenchmarkStore.aggregate */ select b.cluster_id, c.name as cluster_name, b.operation, date_trunc('day', b.started_at at time zone 'UTC') at time zone 'UTC' as bucket_start,
          count(*)::int as runs, sum(b.requests)::int as requests, sum(b.errors)::int as errors,
          percentile_cont(0.5) within group (order by b.p50_ms) as p50_ms_median, max(b.p99_ms) as p99_ms_max,
          sum(b.mean_ms * (b.requests - b.errors)) / nullif(sum(case when b.mean_ms is null then 0 else b.requests - b.errors end), 0) as mean_ms,
          avg(b.requests_per_sec) as requests_per_sec_mean
        from "federation"."benchmarks" b join "federation"."clusters" c on c.id = b.cluster_id
        where b.cluster_id = $1 and b.started_at >= $2
        group by b.cluster_id, c.name, b.operation, date_trunc('day', b.started_at at time zone 'UTC') at time zone 'UTC'
        order by c.name, b.operation, date_trunc('day', b.started_at at time zone 'UTC') at time zone 'UTC';
