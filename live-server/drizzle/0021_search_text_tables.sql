CREATE TABLE "issue_search_texts" (
	"issue_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"description_tsv" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_search_texts" (
	"page_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"text_tsv" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issue_search_texts" ADD CONSTRAINT "issue_search_texts_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_search_texts" ADD CONSTRAINT "page_search_texts_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_search_texts_tsv_idx" ON "issue_search_texts" USING gin ("description_tsv") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "page_search_texts_tsv_idx" ON "page_search_texts" USING gin ("text_tsv") WITH (fastupdate=false);--> statement-breakpoint
-- The words of descriptions and pages move from the generated columns of migration 0020 to
-- tables of their own, kept by triggers: a generated column's GIN entries were written again
-- on every update of the row (a priority change, a drag on the board: +9 ms for a 5,000-word
-- description), while these rows change only when the text does. routes/search/README.md.
ALTER TABLE "issues" DROP COLUMN "description_tsv";--> statement-breakpoint
ALTER TABLE "pages" DROP COLUMN "text_tsv";--> statement-breakpoint
INSERT INTO "issue_search_texts" ("issue_id", "workspace_id", "description_tsv")
  SELECT "id", "workspace_id", to_tsvector('english', left("description_stripped", 100000)) FROM "issues";--> statement-breakpoint
INSERT INTO "page_search_texts" ("page_id", "workspace_id", "text_tsv")
  SELECT "id", "workspace_id", to_tsvector('english', "name" || ' ' || left("description_stripped", 100000)) FROM "pages";--> statement-breakpoint
CREATE FUNCTION "tideline_issue_search_text"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO issue_search_texts (issue_id, workspace_id, description_tsv)
    VALUES (NEW.id, NEW.workspace_id, to_tsvector('english', left(NEW.description_stripped, 100000)))
    ON CONFLICT (issue_id) DO UPDATE
      SET workspace_id = EXCLUDED.workspace_id, description_tsv = EXCLUDED.description_tsv;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "issues_search_text_insert" AFTER INSERT ON "issues"
  FOR EACH ROW EXECUTE FUNCTION "tideline_issue_search_text"();--> statement-breakpoint
CREATE TRIGGER "issues_search_text_update" AFTER UPDATE OF "description_stripped" ON "issues"
  FOR EACH ROW WHEN (OLD."description_stripped" IS DISTINCT FROM NEW."description_stripped")
  EXECUTE FUNCTION "tideline_issue_search_text"();--> statement-breakpoint
CREATE FUNCTION "tideline_page_search_text"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO page_search_texts (page_id, workspace_id, text_tsv)
    VALUES (NEW.id, NEW.workspace_id, to_tsvector('english', NEW.name || ' ' || left(NEW.description_stripped, 100000)))
    ON CONFLICT (page_id) DO UPDATE
      SET workspace_id = EXCLUDED.workspace_id, text_tsv = EXCLUDED.text_tsv;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "pages_search_text_insert" AFTER INSERT ON "pages"
  FOR EACH ROW EXECUTE FUNCTION "tideline_page_search_text"();--> statement-breakpoint
CREATE TRIGGER "pages_search_text_update" AFTER UPDATE OF "name", "description_stripped" ON "pages"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."description_stripped" IS DISTINCT FROM NEW."description_stripped")
  EXECUTE FUNCTION "tideline_page_search_text"();
