/* LoginCodeStore.save */ insert into "identity"."login_codes" (code_hash, account_id, provider, account_created, created_at, expires_at)
        values ($1, $2, $3, $4, $5, $6);

/* LoginCodeStore.consume */ update "identity"."login_codes" set consumed_at = $1
        where code_hash = $2 and consumed_at is null and expires_at > $3
        returning account_id, provider, account_created;
