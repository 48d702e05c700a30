CREATE TABLE "answer_archive" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_history_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"value" text NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"idempotency_key" text NOT NULL,
	"late" boolean NOT NULL,
	"superseded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "focus_losses" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_history_id" integer NOT NULL,
	"count" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"device_token" text
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
ALTER TABLE "answer_archive" ADD CONSTRAINT "answer_archive_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_archive" ADD CONSTRAINT "answer_archive_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "focus_losses" ADD CONSTRAINT "focus_losses_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_archive_schedule_history_idx" ON "answer_archive" USING btree ("schedule_history_id");--> statement-breakpoint
CREATE INDEX "focus_losses_schedule_history_idx" ON "focus_losses" USING btree ("schedule_history_id");