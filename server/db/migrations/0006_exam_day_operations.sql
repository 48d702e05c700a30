CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"staff_id" integer,
	"action" text NOT NULL,
	"schedule_id" integer NOT NULL,
	"schedule_history_id" integer,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reason" text NOT NULL,
	"credit_key" text,
	CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('move_terminal', 'retake', 'extend', 'extend_room', 'outage_credit', 'maintenance_credit'))
);
--> statement-breakpoint
CREATE TABLE "server_heartbeat" (
	"id" smallint PRIMARY KEY NOT NULL,
	"beat_at" timestamp with time zone NOT NULL,
	CONSTRAINT "server_heartbeat_single_row_check" CHECK ("server_heartbeat"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "staff" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"login_id" text NOT NULL,
	"name" text NOT NULL,
	"role" text DEFAULT 'proctor' NOT NULL,
	"password_hash" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_role_check" CHECK ("staff"."role" in ('proctor'))
);
--> statement-breakpoint
CREATE TABLE "staff_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "staff_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
-- answer_archive: from a serial key to (schedule_history_id, reset_number, question_id). Rows
-- archived before are numbered per question in the order they were archived (always unique).
ALTER TABLE "answer_archive" ADD COLUMN "reset_number" integer;--> statement-breakpoint
UPDATE "answer_archive" AS "a" SET "reset_number" = "r"."n" FROM (SELECT "id", row_number() OVER (PARTITION BY "schedule_history_id", "question_id" ORDER BY "superseded_at", "id") AS "n" FROM "answer_archive") AS "r" WHERE "r"."id" = "a"."id";--> statement-breakpoint
ALTER TABLE "answer_archive" ALTER COLUMN "reset_number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "answer_archive" DROP CONSTRAINT "answer_archive_pkey";--> statement-breakpoint
ALTER TABLE "answer_archive" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "answer_archive" ADD CONSTRAINT "answer_archive_pkey" PRIMARY KEY("schedule_history_id","reset_number","question_id");--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD COLUMN "last_contact_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD COLUMN "question_index" smallint;--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD COLUMN "extra_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD COLUMN "device_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tokens" ADD CONSTRAINT "staff_tokens_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_schedule_idx" ON "audit_log" USING btree ("schedule_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_credit_key_idx" ON "audit_log" USING btree ("credit_key") WHERE "audit_log"."credit_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_organization_login_idx" ON "staff" USING btree ("organization_id","login_id");--> statement-breakpoint
CREATE INDEX "staff_tokens_staff_idx" ON "staff_tokens" USING btree ("staff_id");--> statement-breakpoint
ALTER TABLE "answer_archive" ADD CONSTRAINT "answer_archive_reset_number_check" CHECK ("answer_archive"."reset_number" >= 1);--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD CONSTRAINT "schedule_histories_extra_seconds_check" CHECK ("schedule_histories"."extra_seconds" >= 0);