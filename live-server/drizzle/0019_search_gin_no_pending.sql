DROP INDEX "cycles_name_trgm_idx";--> statement-breakpoint
DROP INDEX "issue_comments_fts_idx";--> statement-breakpoint
DROP INDEX "issues_name_fts_idx";--> statement-breakpoint
DROP INDEX "issues_description_fts_idx";--> statement-breakpoint
DROP INDEX "issues_name_trgm_idx";--> statement-breakpoint
DROP INDEX "modules_name_trgm_idx";--> statement-breakpoint
DROP INDEX "pages_name_trgm_idx";--> statement-breakpoint
DROP INDEX "pages_fts_idx";--> statement-breakpoint
CREATE INDEX "cycles_name_trgm_idx" ON "cycles" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "issue_comments_fts_idx" ON "issue_comments" USING gin (to_tsvector('english', left("comment_stripped", 100000))) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "issues_name_fts_idx" ON "issues" USING gin (to_tsvector('english', "name")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "issues_description_fts_idx" ON "issues" USING gin (to_tsvector('english', left("description_stripped", 100000))) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "issues_name_trgm_idx" ON "issues" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "modules_name_trgm_idx" ON "modules" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "pages_name_trgm_idx" ON "pages" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "pages_fts_idx" ON "pages" USING gin (to_tsvector('english', "name" || ' ' || left("description_stripped", 100000))) WITH (fastupdate=false);