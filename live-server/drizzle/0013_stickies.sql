CREATE TABLE "stickies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text,
	"description_html" text DEFAULT '<p></p>' NOT NULL,
	"description_stripped" text,
	"logo_props" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"color" text,
	"background_color" text,
	"sort_order" double precision DEFAULT 65535 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "stickies" ADD CONSTRAINT "stickies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stickies" ADD CONSTRAINT "stickies_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stickies_ws_owner_order_idx" ON "stickies" USING btree ("workspace_id","owner_id","sort_order");