CREATE TABLE "answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_history_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"value" text NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"idempotency_key" text NOT NULL,
	"late" boolean DEFAULT false NOT NULL,
	CONSTRAINT "answers_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"examinee_id" integer NOT NULL,
	"schedule_history_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "auth_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "examinees" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"grade_id" smallint,
	"email" text,
	"login_code" text NOT NULL,
	"login_id" text,
	"password_hash" text,
	"is_my_page_login" boolean DEFAULT false NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "examinees_login_code_unique" UNIQUE("login_code"),
	CONSTRAINT "examinees_login_id_unique" UNIQUE("login_id"),
	CONSTRAINT "examinees_grade_check" CHECK ("examinees"."grade_id" is null or "examinees"."grade_id" between 1 and 12 or "examinees"."grade_id" = 99)
);
--> statement-breakpoint
CREATE TABLE "exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"level_id" integer NOT NULL,
	"title" text NOT NULL,
	"time_limit_seconds" integer DEFAULT 2400 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exams_code_unique" UNIQUE("code"),
	CONSTRAINT "exams_time_limit_check" CHECK ("exams"."time_limit_seconds" > 0)
);
--> statement-breakpoint
CREATE TABLE "levels" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_id" smallint NOT NULL,
	"position" smallint NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"login_method" smallint NOT NULL,
	"enable_mode_step" boolean DEFAULT false NOT NULL,
	"foreign_payment_method" boolean DEFAULT false NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_code_unique" UNIQUE("code"),
	CONSTRAINT "organizations_category_check" CHECK ("organizations"."category" in ('FOREIGN', 'SCHOOL', 'OUTSIDE_SCHOOL', 'COMPANY', 'OTHER')),
	CONSTRAINT "organizations_login_method_check" CHECK ("organizations"."login_method" in (1, 2, 3))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_history_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"provider" text NOT NULL,
	"psp_reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_psp_reference_unique" UNIQUE("psp_reference"),
	CONSTRAINT "payments_kind_check" CHECK ("payments"."kind" in ('exam_fee', 'result_sheet', 'certificate')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in (0, 1, 2)),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_id" integer NOT NULL,
	"number" smallint NOT NULL,
	"type" text NOT NULL,
	"prompt" text NOT NULL,
	"choices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"correct_answer" text NOT NULL,
	"unit" text NOT NULL,
	CONSTRAINT "questions_type_check" CHECK ("questions"."type" in ('single_choice', 'text')),
	CONSTRAINT "questions_number_check" CHECK ("questions"."number" > 0)
);
--> statement-breakpoint
CREATE TABLE "schedule_histories" (
	"id" serial PRIMARY KEY NOT NULL,
	"examinee_id" integer NOT NULL,
	"schedule_id" integer NOT NULL,
	"exam_id" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"user_key" text NOT NULL,
	"test_key" text NOT NULL,
	"started_at" timestamp with time zone,
	"deadline_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"device_token" text,
	"locale" text,
	"flag_retake" boolean DEFAULT false NOT NULL,
	"answer_count" integer,
	"answers_digest" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_histories_user_key_unique" UNIQUE("user_key"),
	CONSTRAINT "schedule_histories_test_key_unique" UNIQUE("test_key"),
	CONSTRAINT "schedule_histories_status_check" CHECK ("schedule_histories"."status" between 0 and 8)
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_code" text NOT NULL,
	"organization_id" integer NOT NULL,
	"venue_id" integer,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_schedule_code_unique" UNIQUE("schedule_code"),
	CONSTRAINT "schedules_window_check" CHECK ("schedules"."ends_at" > "schedules"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"id" smallint PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "subjects_id_check" CHECK ("subjects"."id" in (1, 2, 3, 6))
);
--> statement-breakpoint
CREATE TABLE "venues" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_examinee_id_examinees_id_fk" FOREIGN KEY ("examinee_id") REFERENCES "public"."examinees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "examinees" ADD CONSTRAINT "examinees_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_level_id_levels_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."levels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "levels" ADD CONSTRAINT "levels_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD CONSTRAINT "schedule_histories_examinee_id_examinees_id_fk" FOREIGN KEY ("examinee_id") REFERENCES "public"."examinees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD CONSTRAINT "schedule_histories_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD CONSTRAINT "schedule_histories_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venues" ADD CONSTRAINT "venues_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answers_schedule_history_question_idx" ON "answers" USING btree ("schedule_history_id","question_id");--> statement-breakpoint
CREATE INDEX "auth_tokens_examinee_idx" ON "auth_tokens" USING btree ("examinee_id");--> statement-breakpoint
CREATE INDEX "examinees_organization_idx" ON "examinees" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "exams_level_idx" ON "exams" USING btree ("level_id");--> statement-breakpoint
CREATE UNIQUE INDEX "levels_subject_position_idx" ON "levels" USING btree ("subject_id","position");--> statement-breakpoint
CREATE INDEX "payments_schedule_history_idx" ON "payments" USING btree ("schedule_history_id");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_exam_number_idx" ON "questions" USING btree ("exam_id","number");--> statement-breakpoint
CREATE INDEX "schedule_histories_examinee_idx" ON "schedule_histories" USING btree ("examinee_id");--> statement-breakpoint
CREATE INDEX "schedule_histories_schedule_idx" ON "schedule_histories" USING btree ("schedule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "venues_organization_name_idx" ON "venues" USING btree ("organization_id","name");