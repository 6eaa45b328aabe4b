CREATE TABLE "exporter_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"type" text DEFAULT 'issue_exports' NOT NULL,
	"project_ids" uuid[] NOT NULL,
	"provider" text NOT NULL,
	"multiple" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"exported_items" integer DEFAULT 0 NOT NULL,
	"total_items" integer,
	"key" text,
	"file_name" text,
	"size" integer,
	"token" text NOT NULL,
	"initiated_by" uuid NOT NULL,
	"completed_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "exporter_history" ADD CONSTRAINT "exporter_history_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exporter_history" ADD CONSTRAINT "exporter_history_initiated_by_users_id_fk" FOREIGN KEY ("initiated_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exporter_history_workspace_created_idx" ON "exporter_history" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "exporter_history_expiry_idx" ON "exporter_history" USING btree ("status","completed_at");