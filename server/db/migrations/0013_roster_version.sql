ALTER TABLE "schedule_histories" ADD COLUMN "roster_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The proctor's roster answers a poll with only the sittings changed since its cursor
-- (server/domain/roster.ts): every change of what the roster shows stamps the sitting with the
-- changing transaction's id. A contact-only update (a heartbeat or an answer save within 20 s of
-- the last contact) stamps nothing: the function is not even called then.
CREATE FUNCTION roster_version_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.roster_version := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER schedule_histories_roster_version_insert BEFORE INSERT ON schedule_histories
FOR EACH ROW EXECUTE FUNCTION roster_version_stamp();
--> statement-breakpoint
CREATE TRIGGER schedule_histories_roster_version BEFORE UPDATE ON schedule_histories
FOR EACH ROW WHEN (
  OLD.status IS DISTINCT FROM NEW.status
  OR OLD.started_at IS DISTINCT FROM NEW.started_at
  OR OLD.deadline_at IS DISTINCT FROM NEW.deadline_at
  OR OLD.finished_at IS DISTINCT FROM NEW.finished_at
  OR OLD.device_token IS DISTINCT FROM NEW.device_token
  OR OLD.device_released_at IS DISTINCT FROM NEW.device_released_at
  OR OLD.question_index IS DISTINCT FROM NEW.question_index
  OR OLD.waiting_answers IS DISTINCT FROM NEW.waiting_answers
  OR OLD.refused_elsewhere_at IS DISTINCT FROM NEW.refused_elsewhere_at
  OR OLD.extra_seconds IS DISTINCT FROM NEW.extra_seconds
  OR OLD.flag_retake IS DISTINCT FROM NEW.flag_retake
  OR OLD.answer_count IS DISTINCT FROM NEW.answer_count
  OR OLD.answers_digest IS DISTINCT FROM NEW.answers_digest
  OR OLD.examinee_id IS DISTINCT FROM NEW.examinee_id
  OR OLD.exam_id IS DISTINCT FROM NEW.exam_id
  OR OLD.schedule_id IS DISTINCT FROM NEW.schedule_id
  -- Heard from after a silence: a pupil the roster may have shown offline is back in the exam.
  OR (OLD.last_contact_at IS NULL) <> (NEW.last_contact_at IS NULL)
  OR NEW.last_contact_at - OLD.last_contact_at >= interval '20 seconds'
) EXECUTE FUNCTION roster_version_stamp();
--> statement-breakpoint
-- A login, a logout or a revocation changes whether a pupil who has not started is logged in.
CREATE FUNCTION roster_version_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE schedule_histories SET roster_version = pg_current_xact_id()::text::bigint
  WHERE status = 0
    AND (id = NEW.schedule_history_id OR (NEW.schedule_history_id IS NULL AND examinee_id = NEW.examinee_id));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER auth_tokens_roster_version AFTER INSERT OR UPDATE OF revoked_at ON auth_tokens
FOR EACH ROW EXECUTE FUNCTION roster_version_token();
--> statement-breakpoint
-- The roster shows the pupil's name, the end of the login code and the classroom.
CREATE FUNCTION roster_version_examinee() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE schedule_histories SET roster_version = pg_current_xact_id()::text::bigint WHERE examinee_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER examinees_roster_version AFTER UPDATE OF name, login_code, venue_id ON examinees
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.login_code IS DISTINCT FROM NEW.login_code OR OLD.venue_id IS DISTINCT FROM NEW.venue_id)
EXECUTE FUNCTION roster_version_examinee();
