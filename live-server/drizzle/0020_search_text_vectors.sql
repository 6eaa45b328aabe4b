DROP INDEX "issue_comments_fts_idx";--> statement-breakpoint
DROP INDEX "issues_description_fts_idx";--> statement-breakpoint
DROP INDEX "pages_fts_idx";--> statement-breakpoint
-- The words of long texts, parsed once when written: a search that meets a common word reads a
-- few rows and checks each stored vector, instead of parsing every description it passes
-- (the planner prices to_tsvector as one cheap call; on a long text it is thousands). These
-- columns and indexes are kept out of db/schema.ts on purpose, so no select of a whole row
-- ever carries them (routes/search/README.md).
ALTER TABLE "issues" ADD COLUMN "description_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('english', left("description_stripped", 100000))) STORED;--> statement-breakpoint
CREATE INDEX "issues_description_tsv_idx" ON "issues" USING gin ("description_tsv") WITH (fastupdate=false);--> statement-breakpoint
ALTER TABLE "issue_comments" ADD COLUMN "comment_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('english', left("comment_stripped", 100000))) STORED;--> statement-breakpoint
CREATE INDEX "issue_comments_tsv_idx" ON "issue_comments" USING gin ("comment_tsv") WITH (fastupdate=false);--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "text_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('english', "name" || ' ' || left("description_stripped", 100000))) STORED;--> statement-breakpoint
CREATE INDEX "pages_text_tsv_idx" ON "pages" USING gin ("text_tsv") WITH (fastupdate=false);
