/* ClusterStore.create */ insert into "federation"."clusters" (id, name, base_url, contact, state, origin, created_at)
            values ($1, $2, $3, $4, 'pending', $5, $6)
            returning id, name, base_url, contact, state, origin, health, last_contact_at, last_latency_ms, last_error, version, schema_hash, compatible, check_claimed_at, created_at, verified_at, deactivated_at;

/* ClusterStore.addKeys */ insert into "federation"."cluster_keys" (kid, paserk, cluster_id, added_at) values ($1, $2, $3, $4), ($5, $6, $7, $8);

/* ClusterStore.addEvent */ insert into "federation"."cluster_events" (id, cluster_id, at, kind, message, actor_id) values ($1, $2, $3, $4, $5, $6);

/* ClusterStore.nameTaken */ select id from "federation"."clusters" where lower(name) = lower($1);

/* ClusterStore.baseUrlTaken */ select id from "federation"."clusters" where base_url = $1;

/* ClusterStore.keysTaken */ select kid from "federation"."cluster_keys" where kid in ($1, $2);

/* ClusterStore.list */ select id, name, base_url, contact, state, origin, health, last_contact_at, last_latency_ms, last_error, version, schema_hash, compatible, check_claimed_at, created_at, verified_at, deactivated_at from "federation"."clusters" where state = $1 order by name;

/* ClusterStore.list */ select id, name, base_url, contact, state, origin, health, last_contact_at, last_latency_ms, last_error, version, schema_hash, compatible, check_claimed_at, created_at, verified_at, deactivated_at from "federation"."clusters" order by name;

/* ClusterStore.keysOf */ select kid, cluster_id, paserk, added_at from "federation"."cluster_keys" where cluster_id in ($1, $2) order by added_at;

/* ClusterStore.activeKey */ select k.paserk, c.id as cluster_id, c.name as cluster_name
        from "federation"."cluster_keys" k join "federation"."clusters" c on c.id = k.cluster_id
        where k.kid = $1 and c.state = 'active';

/* ClusterStore.events */ select e.id, e.cluster_id, e.at, e.kind, e.message, e.actor_id from "federation"."cluster_events" e
        join (
          select r.id, row_number() over (partition by r.cluster_id order by r.at desc, r.id desc) as rank
          from "federation"."cluster_events" r where r.cluster_id in ($1, $2)
        ) ranked on ranked.id = e.id
        where ranked.rank <= $3
        order by e.at desc, e.id desc;

/* ClusterStore.setState */ update "federation"."clusters" set state = $1, verified_at = $2 where id = $3 and state in ($4, $5) returning id;

/* ClusterStore.addEvent */ insert into "federation"."cluster_events" (id, cluster_id, at, kind, message, actor_id) values ($1, $2, $3, $4, $5, $6);

/* ClusterStore.setState */ update "federation"."clusters" set state = $1, deactivated_at = $2 where id = $3 and state in ($4) returning id;

/* ClusterStore.addEvent */ insert into "federation"."cluster_events" (id, cluster_id, at, kind, message, actor_id) values ($1, $2, $3, $4, $5, $6);

/* ClusterStore.lockForContact */ select health, name from "federation"."clusters" where id = $1 for update;

/* ClusterStore.recordContact */ update "federation"."clusters"
          set health = $1, last_contact_at = $2, last_latency_ms = $3,
              last_error = $4, version = $5, schema_hash = $6
          where id = $7;

/* ClusterStore.addEvent */ insert into "federation"."cluster_events" (id, cluster_id, at, kind, message, actor_id) values ($1, $2, $3, $4, $5, $6);

/* ClusterStore.claimDuePings */ update "federation"."clusters" set check_claimed_at = $1
        where state = 'active' and (check_claimed_at is null or check_claimed_at < $2)
        returning id, name, base_url, contact, state, origin, health, last_contact_at, last_latency_ms, last_error, version, schema_hash, compatible, check_claimed_at, created_at, verified_at, deactivated_at;

/* ClusterStore.saveSchemaCheck */ insert into "federation"."schema_checks" (id, cluster_id, checked_at, their_hash, our_hash, compatible, sdl, changes)
          values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb);

/* ClusterStore.setCompatible */ update "federation"."clusters" set compatible = $1, schema_hash = $2 where id = $3;

/* ClusterStore.latestSchemaChecks */ select distinct on (cluster_id) id, cluster_id, checked_at, their_hash, our_hash, compatible, sdl, changes from "federation"."schema_checks" order by cluster_id, checked_at desc;
