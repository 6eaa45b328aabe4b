CREATE TABLE "webhook_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"webhook_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"event" text NOT NULL,
	"action" text NOT NULL,
	"status" text NOT NULL,
	"attempt" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"response_status" integer,
	"response_body" text,
	"error" text,
	"request_body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"url" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"secret_key" text NOT NULL,
	"project" boolean DEFAULT false NOT NULL,
	"issue" boolean DEFAULT false NOT NULL,
	"module" boolean DEFAULT false NOT NULL,
	"cycle" boolean DEFAULT false NOT NULL,
	"issue_comment" boolean DEFAULT false NOT NULL,
	"intake" boolean DEFAULT false NOT NULL,
	"failing" boolean DEFAULT false NOT NULL,
	"last_failure_at" timestamp with time zone,
	"last_failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "webhook_logs" ADD CONSTRAINT "webhook_logs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_logs" ADD CONSTRAINT "webhook_logs_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_logs_webhook_created_idx" ON "webhook_logs" USING btree ("webhook_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhooks_workspace_url_key" ON "webhooks" USING btree ("workspace_id","url");