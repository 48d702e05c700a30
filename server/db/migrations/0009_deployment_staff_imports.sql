CREATE TABLE "schedule_exams" (
	"schedule_id" integer NOT NULL,
	"exam_id" integer NOT NULL,
	CONSTRAINT "schedule_exams_schedule_id_exam_id_pk" PRIMARY KEY("schedule_id","exam_id")
);
--> statement-breakpoint
ALTER TABLE "exams" DROP CONSTRAINT "exams_code_unique";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "staff" DROP CONSTRAINT "staff_role_check";--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "schedule_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ALTER COLUMN "organization_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "entity" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "after" jsonb;--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "class_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "venue_id" integer;--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "titles" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "content_digest" text;--> statement-breakpoint
ALTER TABLE "schedule_exams" ADD CONSTRAINT "schedule_exams_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exams" ADD CONSTRAINT "schedule_exams_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "examinees" ADD CONSTRAINT "examinees_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "examinees_organization_external_idx" ON "examinees" USING btree ("organization_id","external_id");--> statement-breakpoint
CREATE INDEX "examinees_venue_idx" ON "examinees" USING btree ("venue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exams_code_version_idx" ON "exams" USING btree ("code","version");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_admin_login_idx" ON "staff" USING btree ("login_id") WHERE "staff"."organization_id" is null;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('move_terminal', 'retake', 'extend', 'extend_room', 'outage_credit', 'maintenance_credit', 'staff_create', 'staff_update', 'import', 'code_reissue', 'slips_print', 'results_export'));--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_version_check" CHECK ("exams"."version" > 0);--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_organization_check" CHECK (("staff"."role" = 'admin') = ("staff"."organization_id" is null));--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_role_check" CHECK ("staff"."role" in ('admin', 'proctor'));