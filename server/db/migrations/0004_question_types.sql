ALTER TABLE "questions" DROP CONSTRAINT "questions_type_check";--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "math" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "input" jsonb;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "blocks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "case_sensitive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_type_check" CHECK ("questions"."type" in ('single_choice', 'text', 'number', 'ordering'));