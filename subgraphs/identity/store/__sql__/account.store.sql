/* AccountStore.insert */ insert into "identity"."accounts" (id, email, email_key, password_hash, display_name, account_type, verified, created_at, updated_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        returning id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at;

/* AccountStore.findById */ select id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at from "identity"."accounts" where id = $1;

/* AccountStore.findByIds */ select id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at from "identity"."accounts" where id = any($1::uuid[]);

/* AccountStore.findCredentials */ select id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at, password_hash from "identity"."accounts" where email_key = $1;

/* AccountStore.list */ select id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at, count(*) over () as total from "identity"."accounts" where email_key like $1
      order by created_at desc, id limit $2 offset $3;

/* AccountStore.changeType */ update "identity"."accounts" set account_type = $1, verified = $2, updated_at = $3
        where id = $4 and account_type in ($5)
        returning id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at;

/* AccountStore.updateProfile */ update "identity"."accounts" set updated_at = $1, display_name = $2, links = $3::jsonb where id = $4 returning id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at;

/* AccountStore.deactivate */ update "identity"."accounts" set deactivated_at = coalesce(deactivated_at, $1::timestamptz), updated_at = $2
        where id = $3 returning id, email, display_name, account_type, verified, affiliation, orcid, bio, links, scientist_tag, deactivated_at, created_at, updated_at;
