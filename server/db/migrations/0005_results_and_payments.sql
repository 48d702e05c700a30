-- Checkouts before this migration had no reference; the product never wrote any (payments came with this issue).
DELETE FROM "payments";--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"locked_by" text,
	"done_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"psp_reference" text NOT NULL,
	"event_code" text NOT NULL,
	"merchant_reference" text NOT NULL,
	"success" boolean NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"unit_price_minor" integer NOT NULL,
	"total_minor" integer NOT NULL,
	CONSTRAINT "payment_items_kind_check" CHECK ("payment_items"."kind" in ('exam_fee', 'result_sheet', 'certificate')),
	CONSTRAINT "payment_items_quantity_check" CHECK ("payment_items"."quantity" > 0),
	CONSTRAINT "payment_items_total_check" CHECK ("payment_items"."total_minor" = "payment_items"."unit_price_minor" * "payment_items"."quantity")
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"schedule_history_id" integer NOT NULL,
	"kind" text NOT NULL,
	"payment_id" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "purchases_schedule_history_id_kind_pk" PRIMARY KEY("schedule_history_id","kind")
);
--> statement-breakpoint
CREATE TABLE "result_units" (
	"schedule_history_id" integer NOT NULL,
	"unit" text NOT NULL,
	"question_count" integer NOT NULL,
	"correct_count" integer NOT NULL,
	CONSTRAINT "result_units_schedule_history_id_unit_pk" PRIMARY KEY("schedule_history_id","unit")
);
--> statement-breakpoint
CREATE TABLE "results" (
	"schedule_history_id" integer PRIMARY KEY NOT NULL,
	"score" integer NOT NULL,
	"max_score" integer NOT NULL,
	"correct_count" integer NOT NULL,
	"question_count" integer NOT NULL,
	"passed" boolean NOT NULL,
	"rank" integer,
	"rank_total" integer,
	"scored_at" timestamp with time zone NOT NULL,
	"statistics_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	CONSTRAINT "results_counts_check" CHECK ("results"."correct_count" between 0 and "results"."question_count" and "results"."score" between 0 and "results"."max_score"),
	CONSTRAINT "results_rank_check" CHECK (("results"."rank" is null) = ("results"."rank_total" is null) and ("results"."rank" is null or "results"."rank" between 1 and "results"."rank_total"))
);
--> statement-breakpoint
CREATE TABLE "unit_statistics" (
	"id" serial PRIMARY KEY NOT NULL,
	"level_id" integer NOT NULL,
	"organization_id" integer,
	"unit" text NOT NULL,
	"examinee_count" integer NOT NULL,
	"correct_rate" double precision NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "unit_statistics_scope_idx" UNIQUE NULLS NOT DISTINCT("level_id","organization_id","unit")
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_kind_check";--> statement-breakpoint
ALTER TABLE "examinees" ADD COLUMN "birth_date" date;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "pass_percent" smallint DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "region" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reference" text NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "purpose" text NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "outcome" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_session_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_session_data" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "expires_at" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "venues" ADD COLUMN "region" text;--> statement-breakpoint
ALTER TABLE "payment_items" ADD CONSTRAINT "payment_items_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_units" ADD CONSTRAINT "result_units_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_statistics" ADD CONSTRAINT "unit_statistics_level_id_levels_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."levels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_statistics" ADD CONSTRAINT "unit_statistics_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_pending_key_idx" ON "jobs" USING btree ("key") WHERE "jobs"."done_at" is null;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."done_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_once_idx" ON "payment_events" USING btree ("provider","psp_reference","event_code");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_items_payment_kind_idx" ON "payment_items" USING btree ("payment_id","kind");--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "kind";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reference_unique" UNIQUE("reference");--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_pass_percent_check" CHECK ("exams"."pass_percent" between 1 and 100);--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_region_check" CHECK ("organizations"."region" is null or "organizations"."region" in ('AU', 'CA', 'EG', 'EE', 'HK', 'ID', 'IN', 'JP', 'MM', 'MY', 'PH', 'SG', 'TH', 'TW', 'US', 'VN'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_purpose_check" CHECK ("payments"."purpose" in ('exam_fee', 'result_fee'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_outcome_check" CHECK ("payments"."outcome" in ('open', 'authorised', 'refused', 'cancelled', 'error', 'expired'));--> statement-breakpoint
ALTER TABLE "venues" ADD CONSTRAINT "venues_region_check" CHECK ("venues"."region" is null or "venues"."region" in ('AU', 'CA', 'EG', 'EE', 'HK', 'ID', 'IN', 'JP', 'MM', 'MY', 'PH', 'SG', 'TH', 'TW', 'US', 'VN'));