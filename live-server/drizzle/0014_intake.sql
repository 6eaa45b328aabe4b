CREATE TABLE "intake_issues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"issue_id" uuid NOT NULL,
	"status" integer DEFAULT -2 NOT NULL,
	"snoozed_till" timestamp with time zone,
	"duplicate_to" uuid,
	"source" text DEFAULT 'IN_APP' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "in_intake" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "intake_issues" ADD CONSTRAINT "intake_issues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_issues" ADD CONSTRAINT "intake_issues_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_issues" ADD CONSTRAINT "intake_issues_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_issues" ADD CONSTRAINT "intake_issues_duplicate_to_issues_id_fk" FOREIGN KEY ("duplicate_to") REFERENCES "public"."issues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "intake_issues_issue_key" ON "intake_issues" USING btree ("issue_id");--> statement-breakpoint
CREATE INDEX "intake_issues_project_idx" ON "intake_issues" USING btree ("project_id","status","created_at");