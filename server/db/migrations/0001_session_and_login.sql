CREATE TABLE "maintenance_windows" (
	"id" serial PRIMARY KEY NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_windows_window_check" CHECK ("maintenance_windows"."ends_at" > "maintenance_windows"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "login_type" smallint;--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "failed_login_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "basic_info_registered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "suspended_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "maintenance_windows_ends_idx" ON "maintenance_windows" USING btree ("ends_at");--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_login_type_check" CHECK ("auth_tokens"."login_type" is null or "auth_tokens"."login_type" between 0 and 7);--> statement-breakpoint
ALTER TABLE "examinees" ADD CONSTRAINT "examinees_failed_login_count_check" CHECK ("examinees"."failed_login_count" >= 0);--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_suspension_check" CHECK (("schedules"."suspended_from" is null) = ("schedules"."suspended_until" is null) and ("schedules"."suspended_from" is null or "schedules"."suspended_until" > "schedules"."suspended_from"));