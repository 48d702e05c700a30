/**
 * The answer save as POST /api/exam/answers asks for it: which way to the rules (rules.ts) a
 * save takes. A statement first (statement.ts: the batch on PostgreSQL, the one statement on
 * PGlite), which checks the token itself, so the call a terminal makes most costs one round
 * trip; whatever it does not store goes the careful way (careful.ts), which names the refusal:
 * - the token not valid for the statement: a token a proctor's move revoked delivers what its
 *   terminal holds from before the move (saveAnswerCarefully with `movedAwayDevice`; no
 *   contact); any other is refused as every pupil call refuses it (tokens.ts `pupilOf`);
 * - a valid token: only the terminal that pressed Start may answer (INCORRECT_DEVICE), then the
 *   careful save, then contact for the proctor roster (the statements mark their own).
 */
import type { Db } from '../../db/client.ts';
import { recordContact } from '../presence.ts';
import { assertOwnDevice } from '../sitting.ts';
import { authenticateMovedAway, pupilOf, type Principal } from '../tokens.ts';
import { saveAnswerCarefully } from './careful.ts';
import type { SaveAnswerInput, SaveAnswerOutcome, SavePath } from './rules.ts';
import { saveAnswerAtOnce } from './statement.ts';

export type SaveAnswerContext = {
  now: Date;
  uploadWindowMs: number;
  /**
   * The way a save tries first; by default the driver's (the batch on PostgreSQL, the one
   * statement on PGlite). Any of the three takes the same saves (test/api/answer-paths.test.ts).
   */
  path?: SavePath;
  /** Told the caller as soon as it is known, so a refusal after it still names the pupil (the request log). */
  identified?(principal: Principal): void;
  /** Marking contact after a careful save failed: the save stands (the caller logs it). */
  contactFailed?(error: unknown): void;
};

/** The caller of a save: its bearer token and X-Device-Token, as sent. */
export type SaveAnswerCaller = { token: string | undefined; deviceToken: string | undefined };

/** Saves one answer by the rules, or throws the refusal (a DomainError). `path`: the way that took it. */
export async function saveAnswer(
  db: Db,
  caller: SaveAnswerCaller,
  input: SaveAnswerInput,
  context: SaveAnswerContext,
): Promise<{ principal: Principal; outcome: SaveAnswerOutcome; path: SavePath }> {
  const { token, deviceToken } = caller;
  const { now } = context;
  const first = context.path === 'careful' ? undefined : context.path;
  const quick = token && context.path !== 'careful' ? await saveAnswerAtOnce(db, token, deviceToken, input, { ...context, path: first }) : {};
  if (quick.principal) context.identified?.(quick.principal);
  if (quick.principal && quick.outcome && quick.path) return { principal: quick.principal, outcome: quick.outcome, path: quick.path };

  // A terminal a proctor moved the pupil away from: its token was revoked by the move.
  const movedAway = quick.movedAway
    ? quick.principal
    : !quick.principal && token
      ? await authenticateMovedAway(db, token, now)
      : undefined;
  if (movedAway) {
    if (!quick.principal) context.identified?.(movedAway);
    // Only what it holds from before the move (refused INCORRECT_DEVICE otherwise); no contact.
    const outcome = await saveAnswerCarefully(db, movedAway, input, { ...context, movedAwayDevice: { deviceToken } });
    return { principal: movedAway, outcome, path: 'careful' };
  }
  const principal = quick.principal ?? (await pupilOf(db, token, now));
  if (!quick.principal) context.identified?.(principal);
  // Device binding: only the terminal that pressed Start may answer (INCORRECT_DEVICE).
  await assertOwnDevice(db, principal, input.scheduleHistoryId, deviceToken);
  const outcome = await saveAnswerCarefully(db, principal, input, context);
  try {
    await recordContact(db, principal, now);
  } catch (error) {
    context.contactFailed?.(error);
  }
  return { principal, outcome, path: 'careful' };
}
