/**
 * The live roster of one schedule, for a teacher reading it from across the room: one row per
 * pupil with their name, state, progress, last contact, time left and extra time, and the actions
 * that apply to them; a room filter when the pupils sit in named rooms; the room-wide "Extend
 * time"; the last action's outcome; and, when a poll failed, a banner that says since when the
 * rows are not current while the machine keeps trying. A pupil offline for more than 30 s, or
 * whose time is up, is marked with an icon and words and a heavier border, never by colour alone.
 * Renders ProctorApi['roster'] and nothing else: every time shown comes from the machine's rows.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { Plural, Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef } from 'react';
import type { RosterState } from '../../../contract/admin.ts';
import { OFFLINE_AFTER_MS } from '../../../contract/presence.ts';
import type { RosterApi } from '../../../machines/proctor/proctor.connect.ts';
import { isNetworkFailure } from '../../../machines/shared/ports.ts';
import type { PupilActionKind, UnavailableReason } from '../../../machines/proctor/proctor.types.ts';
import { CheckIcon, ClockIcon, OfflineIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { PageHeading } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { useLanguage } from '../../i18n/language-context.tsx';
import { intlLocale, type LanguageKey } from '../../../contract/languages.ts';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import styles from './proctor.module.css';

export const stateLabels: Record<RosterState, MessageDescriptor> = {
  not_logged_in: msg`Not logged in`,
  logged_in: msg`Logged in`,
  in_exam: msg`In the exam`,
  offline: msg`Offline`,
  moving: msg`Moving to another terminal`,
  time_up: msg`Time is up`,
  finished: msg`Finished`,
  cancelled: msg`Cancelled`,
  expired: msg`Expired`,
};

export const actionLabels: Record<PupilActionKind, MessageDescriptor> = {
  move_terminal: msg`Move to another terminal`,
  extend: msg`Extend time`,
  retake: msg`Retake`,
};

/** Why an action is shown disabled (RosterRow.unavailable). */
export const unavailableReasons: Record<UnavailableReason, MessageDescriptor> = {
  upload_window_closed: msg`Too late to extend: this exam's answers can no longer be sent.`,
};

/** mm:ss (h:mm:ss from an hour), as the pupil's own timer shows it. */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** hh:mm:ss (24-hour, to the second: "last updated" must be exact) of this terminal's clock, in the language's digits. */
export function clockTime(ms: number | string, language: LanguageKey): string {
  return new Intl.DateTimeFormat(intlLocale(language), { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(ms));
}

function useClockTime() {
  const { language } = useLanguage();
  return (ms: number) => clockTime(ms, language);
}

/** How recently the pupil's terminal was heard from; "under 30 s ago" for a pupil in the exam (RosterRow.recentContact). */
function LastContact({ seconds, recent }: { seconds: number | null; recent: boolean }) {
  if (recent) {
    const limit = OFFLINE_AFTER_MS / 1000;
    return <Trans>Under {limit} s ago</Trans>;
  }
  if (seconds === null) return <span>—</span>;
  if (seconds < 60) return <Trans>{seconds} s ago</Trans>;
  const minutes = Math.floor(seconds / 60);
  return <Trans>{minutes} min ago</Trans>;
}

function StateCell({ row }: { row: RosterApi['rows'][number] }) {
  const { i18n } = useLingui();
  const label = i18n._(stateLabels[row.state]);
  return (
    <span className={styles.state} data-state={row.state}>
      {row.state === 'offline' && <OfflineIcon />}
      {row.state === 'time_up' && <WarningIcon />}
      {row.state === 'finished' && <CheckIcon />}
      <span>{label}</span>
      {row.state === 'offline' && (
        <span className={styles.stateDetail}>
          <Trans>No contact for more than 30 s</Trans>
        </span>
      )}
      {row.retake && (
        <span className={styles.stateDetail}>
          <Trans>Reset for a retake</Trans>
        </span>
      )}
    </span>
  );
}

function Progress({ row }: { row: RosterApi['rows'][number] }) {
  const received = row.receiptAnswers;
  const saved = row.answersSaved;
  if (row.state === 'finished' && received !== null) {
    return <Plural value={received} one="Receipt: # answer" other="Receipt: # answers" />;
  }
  if (row.state === 'in_exam' || row.state === 'offline' || row.state === 'moving' || row.state === 'time_up') {
    const number = row.questionNumber;
    const count = row.questionCount;
    return (
      <span className={styles.progress}>
        {number !== null && (
          <span>
            <Trans>
              Question {number} of {count}
            </Trans>
          </span>
        )}
        <span>
          <Plural value={saved} one="# answer saved" other="# answers saved" />
        </span>
      </span>
    );
  }
  return <span>—</span>;
}

function Row({ row, nameId }: { row: RosterApi['rows'][number]; nameId: string }) {
  const { i18n } = useLingui();
  const hint = row.codeHint;
  const extra = row.extraMinutes;
  return (
    <tr data-attention={row.attention || undefined} data-sitting={row.sittingId}>
      <th scope="row" id={nameId} className={styles.nameCell}>
        <span dir="auto">{row.name}</span>
        <span className={styles.sub}>
          <Trans>
            Code …<span className="ltr-isolate">{hint}</span>
          </Trans>
          {row.room && (
            <>
              {' · '}
              <span dir="auto">{row.room}</span>
            </>
          )}
        </span>
      </th>
      <td>
        <StateCell row={row} />
      </td>
      <td>
        <Progress row={row} />
      </td>
      <td>
        <LastContact seconds={row.lastContactSeconds} recent={row.recentContact} />
      </td>
      <td>
        {row.timeLeftSeconds === null ? (
          <span>—</span>
        ) : (
          <span className={`ltr-isolate ${styles.timeLeft}`}>{clock(row.timeLeftSeconds)}</span>
        )}
      </td>
      <td>
        {extra > 0 ? (
          <Plural value={extra} one="+# min" other="+# min" />
        ) : (
          <span>—</span>
        )}
      </td>
      <td>
        {row.actions.length > 0 && (
          <div className={styles.rowActions}>
            {row.actions.map((kind) => {
              // An action that cannot succeed now is shown disabled, with the connect's reason.
              const reason = row.unavailable[kind];
              const reasonId = `${nameId}-${kind}-unavailable`;
              return (
                <span key={kind} className={styles.rowAction}>
                  <button
                    type="button"
                    className={`button ${styles.rowButton}`}
                    aria-describedby={reason ? `${nameId} ${reasonId}` : nameId}
                    disabled={reason !== undefined}
                    onClick={() => row.request(kind)}
                  >
                    {i18n._(actionLabels[kind])}
                  </button>
                  {reason && (
                    <span id={reasonId} className={styles.unavailable}>
                      {i18n._(unavailableReasons[reason])}
                    </span>
                  )}
                </span>
              );
            })}
          </div>
        )}
      </td>
    </tr>
  );
}

function Outcome({ outcome }: { outcome: NonNullable<RosterApi['outcome']> }) {
  const name = outcome.examineeName ?? '';
  const minutes = outcome.minutes ?? 0;
  switch (outcome.kind) {
    case 'move_terminal':
      return <Trans>{name} can now log in on another terminal. Every saved answer and the time left are kept.</Trans>;
    case 'retake':
      return <Trans>{name} has been reset for a retake.</Trans>;
    case 'extend':
      return <Plural value={minutes} one={`${name} has # more minute.`} other={`${name} has # more minutes.`} />;
    case 'extend_room': {
      const extended = outcome.extended ?? 0;
      return (
        <>
          <Plural value={extended} one="# pupil in the exam was given more time:" other="# pupils in the exam were given more time:" />{' '}
          <Plural value={minutes} one="# minute." other="# minutes." />
        </>
      );
    }
  }
}

export function RosterView({ roster }: { roster: RosterApi }) {
  const { i18n } = useLingui();
  const timeOf = useClockTime();
  const rowIds = useId();
  const filterId = useId();
  const { counts, connection } = roster;
  const { total, inExam, offline, finished } = counts;
  const updated = connection.updatedAt === null ? '' : timeOf(connection.updatedAt);
  const title = roster.schedule ? roster.schedule.name || roster.schedule.code : '';

  // The confirm dialog gives focus back to the button that opened it; when the action took that
  // button away (a pupil moved has no "Move" any more), focus would fall to the page's start:
  // a keyboard user lands on what was done instead.
  const outcomeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (roster.outcome === null) return;
    const active = document.activeElement;
    if (active === null || active === document.body || !active.isConnected) outcomeRef.current?.focus();
  }, [roster.outcome]);

  return (
    <section aria-labelledby="proctor-roster">
      <div className={styles.titleRow}>
        <PageHeading id="proctor-roster">
          <span dir="auto">{title}</span>
        </PageHeading>
        <div className="button-row">
          <button type="button" className="button" onClick={roster.backToSchedules} disabled={!roster.canLeave}>
            <Trans>All schedules</Trans>
          </button>
          <button type="button" className="button" onClick={roster.openAudit} disabled={!roster.canLeave}>
            <Trans>Audit log</Trans>
          </button>
        </div>
      </div>
      {roster.schedule && (
        <p className={styles.sub}>
          <span className="ltr-isolate">{roster.schedule.code}</span>
        </p>
      )}

      {connection.lost && (
        <div className="alert" data-tone="warning" role="alert">
          <OfflineIcon />
          <div>
            <p>
              {isNetworkFailure(connection.failure) ? (
                <Trans>Connection lost.</Trans>
              ) : (
                i18n._(staffFailureMessage(connection.failure ?? 'GENERIC_ERROR'))
              )}{' '}
              {connection.updatedAt !== null ? (
                <Trans>
                  Last updated <span className="ltr-isolate">{updated}</span>.
                </Trans>
              ) : (
                <Trans>The roster has not loaded yet.</Trans>
              )}{' '}
              <Trans>Trying again…</Trans>
            </p>
            <button type="button" className="button" onClick={connection.retryNow}>
              <Trans>Try now</Trans>
            </button>
          </div>
        </div>
      )}

      {roster.outcome && (
        <div ref={outcomeRef} className="alert" data-tone="info" role="status" tabIndex={-1}>
          <CheckIcon />
          <p>
            <Outcome outcome={roster.outcome} />
          </p>
        </div>
      )}

      {roster.status !== 'ready' ? (
        roster.status === 'loading' && (
          <SkeletonRegion>
            <SkeletonBlock shape="box" blockSize="3rem" />
            <SkeletonBlock shape="box" blockSize="3rem" />
            <SkeletonBlock shape="box" blockSize="3rem" />
          </SkeletonRegion>
        )
      ) : (
        <>
          <div className={styles.toolbar}>
            {roster.rooms.length > 0 && (
              <div className={`field ${styles.filter}`}>
                <label htmlFor={filterId} className="field-label">
                  <Trans>Room</Trans>
                </label>
                <select
                  id={filterId}
                  className="input"
                  value={roster.venueId === null ? '' : String(roster.venueId)}
                  onChange={(event) => roster.chooseVenue(event.target.value === '' ? null : Number(event.target.value))}
                >
                  <option value="">{i18n._(msg`All rooms`)}</option>
                  {roster.rooms.map((room) => (
                    <option key={room.id} value={room.id}>
                      {room.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <p className={styles.counts}>
              <Plural value={total} one="# pupil" other="# pupils" />
              {' · '}
              <Plural value={inExam} one="# in the exam" other="# in the exam" />
              {' · '}
              <Plural value={offline} one="# offline" other="# offline" />
              {' · '}
              <Plural value={finished} one="# finished" other="# finished" />
            </p>
            <button type="button" className="button" onClick={roster.extendRoom} disabled={!roster.canExtendRoom}>
              <ClockIcon />
              {roster.venueId === null ? <Trans>Extend time for everyone</Trans> : <Trans>Extend time for this room</Trans>}
            </button>
          </div>
          {connection.updatedAt !== null && !connection.lost && (
            <p className={styles.sub}>
              <Trans>
                Updated <span className="ltr-isolate">{updated}</span>. The list updates by itself every 5 seconds.
              </Trans>
            </p>
          )}
          {roster.rows.length === 0 ? (
            <p>
              <Trans>No pupils are booked here.</Trans>
            </p>
          ) : (
            <div className={styles.tableFrame} role="region" aria-labelledby="proctor-roster" tabIndex={0}>
              <table className={styles.table}>
                <caption className="visually-hidden">
                  <Trans>Pupils of {title}</Trans>
                </caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans>Pupil</Trans>
                    </th>
                    <th scope="col">
                      <Trans>State</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Progress</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Last contact</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Time left</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Extra time</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Actions</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {roster.rows.map((row) => (
                    <Row key={row.sittingId} row={row} nameId={`${rowIds}-${row.sittingId}`} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
