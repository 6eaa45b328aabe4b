-- Trigram matching (substrings, typos) for the workspace search; PGlite loads the extension in
-- its worker (db/pglite-worker.ts), PostgreSQL ships it in contrib (a trusted extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "cycles_name_trgm_idx" ON "cycles" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "issue_comments_fts_idx" ON "issue_comments" USING gin (to_tsvector('english', left("comment_stripped", 100000)));--> statement-breakpoint
CREATE INDEX "issues_name_fts_idx" ON "issues" USING gin (to_tsvector('english', "name"));--> statement-breakpoint
CREATE INDEX "issues_description_fts_idx" ON "issues" USING gin (to_tsvector('english', left("description_stripped", 100000)));--> statement-breakpoint
CREATE INDEX "issues_name_trgm_idx" ON "issues" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "issues_ws_lower_name_idx" ON "issues" USING btree ("workspace_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "modules_name_trgm_idx" ON "modules" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pages_name_trgm_idx" ON "pages" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pages_fts_idx" ON "pages" USING gin (to_tsvector('english', "name" || ' ' || left("description_stripped", 100000)));