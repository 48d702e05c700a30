CREATE TABLE "documents" (
	"schedule_history_id" integer NOT NULL,
	"kind" text NOT NULL,
	"locale" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"etag" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_schedule_history_id_kind_locale_pk" PRIMARY KEY("schedule_history_id","kind","locale"),
	CONSTRAINT "documents_kind_check" CHECK ("documents"."kind" in ('report', 'certificate'))
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;