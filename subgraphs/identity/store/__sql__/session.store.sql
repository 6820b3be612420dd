/* SessionStore.startFamily */ with family as (
          insert into "identity"."refresh_families" (id, account_id, created_at) values ($1, $2, $3)
          returning id
        )
        insert into "identity"."refresh_tokens" (id, family_id, account_id, token_hash, issued_at, expires_at)
        select $4::uuid, family.id, $5::uuid, $6::text, $7::timestamptz, $8::timestamptz from family;

/* SessionStore.consume */ update "identity"."refresh_tokens" t set used_at = $1
        from "identity"."refresh_families" f
        where t.id = $2 and t.token_hash = $3
          and t.used_at is null and t.revoked_at is null and t.expires_at > $4
          and f.id = t.family_id and f.revoked_at is null
        returning t.family_id, t.account_id;

/* SessionStore.findToken */ select t.id, t.family_id, t.account_id, t.token_hash, t.expires_at, t.used_at, t.revoked_at, f.revoked_at as family_revoked_at, f.revoked_reason as family_revoked_reason
        from "identity"."refresh_tokens" t join "identity"."refresh_families" f on f.id = t.family_id
        where t.id = $1;

/* SessionStore.revokeFamily */ with family as (
          update "identity"."refresh_families" set revoked_at = coalesce(revoked_at, $1), revoked_reason = coalesce(revoked_reason, $2)
          where id = $3
          returning id
        )
        update "identity"."refresh_tokens" set revoked_at = $4
        where family_id in (select id from family) and revoked_at is null;

/* SessionStore.revokeAccountFamilies */ with families as (
          update "identity"."refresh_families" set revoked_at = $1, revoked_reason = $2
          where account_id = $3 and revoked_at is null and ($4::uuid is null or id <> $5::uuid)
          returning id
        ), tokens as (
          update "identity"."refresh_tokens" set revoked_at = $6
          where family_id in (select id from families) and revoked_at is null
        )
        select count(*) as revoked from families;
