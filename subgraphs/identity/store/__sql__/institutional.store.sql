/* InstitutionalStore.saveFlow */ insert into "identity"."oidc_states" (state_hash, provider, purpose, account_id, mode, binding_hash, code_verifier, nonce, redirect_uri, created_at, expires_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8, $9,
                $10, $11);

/* InstitutionalStore.consumeFlow */ update "identity"."oidc_states" set consumed_at = $1
        where state_hash = $2 and provider = $3 and consumed_at is null
        returning provider, purpose, account_id, mode, binding_hash, code_verifier, nonce, redirect_uri, created_at, expires_at;

/* InstitutionalStore.findVerification */ select account_id, issuer, subject, institution, email, email_domain, affiliations, verified_at
        from "identity"."institutional_verifications" where account_id = $1;

/* InstitutionalStore.upsertVerification */ insert into "identity"."institutional_verifications" (account_id, issuer, subject, institution, email, email_domain, affiliations, verified_at)
        values ($1, $2, $3, $4, $5, $6,
                $7::jsonb, $8)
        on conflict (account_id) do update set
          issuer = excluded.issuer, subject = excluded.subject, institution = excluded.institution, email = excluded.email,
          email_domain = excluded.email_domain, affiliations = excluded.affiliations, verified_at = excluded.verified_at
        returning account_id, issuer, subject, institution, email, email_domain, affiliations, verified_at;

/* InstitutionalStore.upsertLink */ insert into "identity"."linked_identities" (id, account_id, provider, issuer, subject, name, username, email, linked_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        on conflict (account_id, provider) do update set
          issuer = excluded.issuer, subject = excluded.subject, name = excluded.name, username = excluded.username,
          email = excluded.email, linked_at = excluded.linked_at
        returning id, account_id, provider, issuer, subject, name, username, email, linked_at;

/* InstitutionalStore.findLinkByIdentity */ select id, account_id, provider, issuer, subject, name, username, email, linked_at from "identity"."linked_identities" where provider = $1 and issuer = $2 and subject = $3;

/* InstitutionalStore.listLinks */ select id, account_id, provider, issuer, subject, name, username, email, linked_at from "identity"."linked_identities" where account_id = $1 order by linked_at, provider;
