/* VerificationStore.latestOf */ select distinct on (account_id) account_id, method, verified_by, verified_at, reason, institution from (
          select account_id, 'superuser' as method, verified_by, verified_at, reason, null::text as institution
          from "identity"."superuser_verifications" where account_id = any($1::uuid[])
          union all
          select account_id, 'institutional' as method, null::uuid as verified_by, verified_at, null::text as reason, institution
          from "identity"."institutional_verifications" where account_id = any($2::uuid[])
        ) v
        order by account_id, verified_at desc;

/* VerificationStore.recordBySuperUser */ insert into "identity"."superuser_verifications" (account_id, verified_by, reason, verified_at)
        values ($1, $2, $3, $4)
        on conflict (account_id) do update set verified_by = excluded.verified_by, reason = excluded.reason, verified_at = excluded.verified_at;

/* VerificationStore.deleteAll.superuser */ delete from "identity"."superuser_verifications" where account_id = $1;

/* VerificationStore.deleteAll.institutional */ delete from "identity"."institutional_verifications" where account_id = $1;
