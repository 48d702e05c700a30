ALTER TABLE "organizations" ADD COLUMN "rank_display_flag" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "application_mode" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_rank_display_flag_check" CHECK ("organizations"."rank_display_flag" in (1, 3));--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_application_mode_check" CHECK ("schedules"."application_mode" in (1, 2));