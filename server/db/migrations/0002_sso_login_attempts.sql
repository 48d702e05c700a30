CREATE TABLE "sso_login_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"org_code" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_login_attempts_state_hash_unique" UNIQUE("state_hash")
);
--> statement-breakpoint
CREATE INDEX "sso_login_attempts_expires_idx" ON "sso_login_attempts" USING btree ("expires_at");