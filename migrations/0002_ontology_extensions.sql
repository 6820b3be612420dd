-- Text search and term validation in the ontology subgraph compare lower(unaccent(...)) forms and rank by trigram
-- similarity. Both extensions are trusted (PostgreSQL 13+), so a database owner may create them; PGlite loads them
-- as contrib modules.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
