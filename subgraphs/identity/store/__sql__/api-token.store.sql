/* ApiTokenStore.insert */ insert into "identity"."api_tokens" as t (id, account_id, name, scope, token_hash, prefix, created_at, expires_at)
        select $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::timestamptz, $8::timestamptz
        where (select count(*) from "identity"."api_tokens" where account_id = $9 and revoked_at is null and expires_at > $10) < $11
        returning t.id, t.account_id, t.name, t.scope, t.prefix, t.created_at, t.expires_at, t.last_used_at, t.last_used_ip, t.revoked_at, t.revoked_reason;

/* ApiTokenStore.findByHash */ select t.id, t.account_id, t.name, t.scope, t.prefix, t.created_at, t.expires_at, t.last_used_at, t.last_used_ip, t.revoked_at, t.revoked_reason, a.account_type, a.verified, a.deactivated_at
        from "identity"."api_tokens" t join "identity"."accounts" a on a.id = t.account_id
        where t.token_hash = $1;

/* ApiTokenStore.findById */ select t.id, t.account_id, t.name, t.scope, t.prefix, t.created_at, t.expires_at, t.last_used_at, t.last_used_ip, t.revoked_at, t.revoked_reason from "identity"."api_tokens" t where t.id = $1;

/* ApiTokenStore.list */ select t.id, t.account_id, t.name, t.scope, t.prefix, t.created_at, t.expires_at, t.last_used_at, t.last_used_ip, t.revoked_at, t.revoked_reason, count(*) over () as total from "identity"."api_tokens" t where t.account_id = $1 and t.revoked_at is null and t.expires_at > $2
      order by t.created_at desc, t.id desc limit $3 offset $4;

/* ApiTokenStore.revoke */ update "identity"."api_tokens" t set revoked_at = $1, revoked_reason = $2
        where t.id = $3 and t.revoked_at is null
        returning t.id, t.account_id, t.name, t.scope, t.prefix, t.created_at, t.expires_at, t.last_used_at, t.last_used_ip, t.revoked_at, t.revoked_reason;

/* ApiTokenStore.revokeAll */ update "identity"."api_tokens" set revoked_at = $1, revoked_reason = $2
        where account_id = $3 and revoked_at is null
        returning id;

/* ApiTokenStore.recordUse */ update "identity"."api_tokens" set last_used_at = $1, last_used_ip = $2 where id = $3;
