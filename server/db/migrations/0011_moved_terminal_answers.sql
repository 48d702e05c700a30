CREATE TABLE "device_moves" (
	"schedule_history_id" integer NOT NULL,
	"device_token" text NOT NULL,
	"moved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_moves_pkey" PRIMARY KEY("schedule_history_id","device_token")
);
--> statement-breakpoint
ALTER TABLE "schedule_histories" ADD COLUMN "waiting_answers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_moves" ADD CONSTRAINT "device_moves_schedule_history_id_schedule_histories_id_fk" FOREIGN KEY ("schedule_history_id") REFERENCES "public"."schedule_histories"("id") ON DELETE no action ON UPDATE no action;