CREATE TABLE "workspace_user_properties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"display_filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"display_properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"rich_filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"navigation_project_limit" integer DEFAULT 10 NOT NULL,
	"navigation_control_preference" text DEFAULT 'ACCORDION' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "issue_activities" ADD COLUMN "comment" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_user_properties" ADD CONSTRAINT "workspace_user_properties_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_user_properties" ADD CONSTRAINT "workspace_user_properties_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_user_properties_key" ON "workspace_user_properties" USING btree ("workspace_id","user_id");--> statement-breakpoint
-- History written before this migration, rewritten the way the reference product writes it (its
-- web client reads these rows): the empty side of a list, date, parent or relation change is "".
UPDATE "issue_activities" SET "old_value" = '' WHERE "old_value" IS NULL AND "field" IN ('assignees', 'labels', 'modules', 'cycles', 'parent', 'start_date', 'target_date', 'sub_issue', 'blocked_by', 'blocking', 'relates_to', 'duplicate', 'start_before', 'start_after', 'finish_before', 'finish_after');--> statement-breakpoint
UPDATE "issue_activities" SET "new_value" = '' WHERE "new_value" IS NULL AND ("field" IN ('assignees', 'labels', 'modules', 'cycles', 'parent', 'start_date', 'target_date', 'sub_issue', 'blocked_by', 'blocking', 'relates_to', 'duplicate', 'start_before', 'start_after', 'finish_before', 'finish_after') OR ("field" = 'link' AND "verb" = 'deleted'));--> statement-breakpoint
-- Joining a cycle or module is "created", leaving it "deleted"; a move between cycles stays "updated".
UPDATE "issue_activities" SET "verb" = 'created' WHERE "field" IN ('cycles', 'modules') AND "verb" = 'updated' AND "old_identifier" IS NULL;--> statement-breakpoint
UPDATE "issue_activities" SET "verb" = 'deleted' WHERE "field" IN ('cycles', 'modules') AND "verb" = 'updated' AND "new_identifier" IS NULL;--> statement-breakpoint
-- Relations: "updated" when added, the other item in old_identifier.
UPDATE "issue_activities" SET "verb" = 'updated', "old_identifier" = "new_identifier", "new_identifier" = NULL WHERE "verb" = 'created' AND "field" IN ('blocked_by', 'blocking', 'relates_to', 'duplicate', 'start_before', 'start_after', 'finish_before', 'finish_after');--> statement-breakpoint
-- Archiving and restoring are "updated" rows of archived_at.
UPDATE "issue_activities" SET "verb" = 'updated', "old_value" = NULL, "new_value" = 'manual_archive' WHERE "verb" = 'archived';--> statement-breakpoint
UPDATE "issue_activities" SET "verb" = 'updated', "old_value" = 'archive', "new_value" = 'restore' WHERE "verb" = 'restored';--> statement-breakpoint
UPDATE "issue_activities" SET "field" = 'issue' WHERE "verb" = 'deleted' AND "field" IS NULL;--> statement-breakpoint
UPDATE "issue_activities" SET "new_value" = NULL WHERE "verb" = 'created' AND "field" IS NULL;--> statement-breakpoint
UPDATE "issue_activities" SET "field" = 'reaction' WHERE "field" = 'comment_reaction';--> statement-breakpoint
-- Estimates: the field names the estimate's type (estimate_points, estimate_categories…); a removal is "removed".
UPDATE "issue_activities" AS a SET "field" = 'estimate_' || e."type" FROM "estimate_points" AS p JOIN "estimates" AS e ON e."id" = p."estimate_id" WHERE a."field" = 'estimate_point' AND p."id" = coalesce(a."new_identifier", a."old_identifier");--> statement-breakpoint
UPDATE "issue_activities" SET "verb" = 'removed' WHERE "field" LIKE 'estimate\_%' AND "new_identifier" IS NULL;
