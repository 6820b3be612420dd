-- Every statement that changes terms or their names announces it on the channel ontology_terms_changed (one notice
-- per transaction: PostgreSQL folds identical ones), whatever wrote it: the service, an import, a person in psql.
-- Each service process keeps recently read terms and forgets them all on a notice (subgraphs/ontology/term.service.ts).
CREATE OR REPLACE FUNCTION ontology.announce_terms_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ontology_terms_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER terms_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ontology.terms
  FOR EACH STATEMENT EXECUTE FUNCTION ontology.announce_terms_changed();
--> statement-breakpoint
CREATE TRIGGER term_names_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ontology.term_names
  FOR EACH STATEMENT EXECUTE FUNCTION ontology.announce_terms_changed();
