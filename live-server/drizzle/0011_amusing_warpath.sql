-- Codes in flight have no sealed copy; they were valid ten minutes at most: whoever held one asks again.
DELETE FROM "magic_codes";--> statement-breakpoint
DROP INDEX "magic_codes_email_key";--> statement-breakpoint
ALTER TABLE "magic_codes" ADD COLUMN "code_sealed" text NOT NULL;--> statement-breakpoint
CREATE INDEX "magic_codes_email_idx" ON "magic_codes" USING btree ("email");