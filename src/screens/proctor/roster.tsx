/**
 * The live roster of one schedule as a dense table, one line per pupil, so a room of 60 fits on
 * one 1366x768 screen (up to three side-by-side columns of rows on a wide screen): the pupils who
 * need attention first, each pupil's name and code hint, the state as a coloured badge with an
 * icon and its words, progress, time left and extra time, and the actions that apply behind one
 * button per row. Above it: a search by name or login code, the room filter, the state filter
 * with each group's count, the room-wide "Extend time", the last action's outcome, and, when a
 * poll failed, a banner that says since when the rows are not current while the machine keeps
 * trying. A pupil who needs attention is marked with an icon, words and a thick edge, never by
 * colour alone. Renders ProctorApi['roster'] and nothing else: the order, the attention, the
 * filter and the search are the machine's (proctor.rules.ts); every time shown comes from its rows.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { Plural, Trans } from '@lingui/react/macro';
import { Fragment, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import type { RosterState } from '../../../contract/admin.ts';
import type { RosterApi } from '../../../machines/proctor/proctor.connect.ts';
import { isNetworkFailure } from '../../../machines/shared/ports.ts';
import type { PupilActionKind, RosterFilter, UnavailableReason } from '../../../machines/proctor/proctor.types.ts';
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

/** How recently the terminal of a pupil marked offline was heard from. */
function LastContact({ seconds }: { seconds: number | null }) {
  if (seconds === null) return null;
  if (seconds < 60) return <Trans>{seconds} s ago</Trans>;
  const minutes = Math.floor(seconds / 60);
  return <Trans>{minutes} min ago</Trans>;
}

type Row = RosterApi['rows'][number];

/** The state as a coloured badge with an icon and its words, and why the pupil needs attention. */
function StateCell({ row }: { row: Row }) {
  const { i18n } = useLingui();
  const label = i18n._(stateLabels[row.state]);
  const waiting = row.waitingAnswers;
  return (
    <span className={styles.stateCell}>
      <span className={styles.badge} data-state={row.state} data-attention={row.attention ?? undefined}>
        {row.state === 'offline' && <OfflineIcon />}
        {(row.state === 'time_up' || row.attention === 'not_started' || row.attention === 'answers_waiting' || row.attention === 'refused_elsewhere') && (
          <WarningIcon />
        )}
        {row.state === 'finished' && <CheckIcon />}
        <span>{label}</span>
      </span>
      {row.state === 'offline' && (
        <span className={styles.detail}>
          <span className="visually-hidden">
            <Trans>No contact for more than 30 s</Trans>{' '}
          </span>
          <LastContact seconds={row.lastContactSeconds} />
        </span>
      )}
      {row.attention === 'refused_elsewhere' && (
        <span className={styles.detail}>
          <Trans>Tried to log in at another terminal</Trans>
        </span>
      )}
      {waiting > 0 && (
        <span className={styles.detail}>
          <Plural value={waiting} one="# answer waiting on the terminal" other="# answers waiting on the terminal" />
        </span>
      )}
      {row.attention === 'not_started' && (
        <span className="visually-hidden">
          <Trans>Most of the room has started.</Trans>
        </span>
      )}
      {row.retake && (
        <span className={styles.detail}>
          <Trans>Reset for a retake</Trans>
        </span>
      )}
    </span>
  );
}

/** The question on screen and the answers saved (or received), short on screen and whole for a screen reader. */
function Progress({ row }: { row: Row }) {
  const received = row.receiptAnswers;
  const saved = row.answersSaved;
  const count = row.questionCount;
  if (row.state === 'finished' && received !== null) {
    return (
      <>
        <span aria-hidden="true" className="ltr-isolate">
          {received}/{count}
        </span>
        <span className="visually-hidden">
          <Plural value={received} one="Receipt: # answer" other="Receipt: # answers" />
        </span>
      </>
    );
  }
  if (row.state === 'in_exam' || row.state === 'offline' || row.state === 'moving' || row.state === 'time_up') {
    const number = row.questionNumber;
    return (
      <>
        <span aria-hidden="true" className="ltr-isolate">
          {number ?? '–'}/{count} · {saved}
        </span>
        <span className="visually-hidden">
          {number !== null && (
            <>
              <Trans>
                Question {number} of {count}
              </Trans>
              {', '}
            </>
          )}
          <Plural value={saved} one="# answer saved" other="# answers saved" />
        </span>
      </>
    );
  }
  return <span>—</span>;
}

/**
 * A pupil's actions behind one button, so the row stays one line: a disclosure (aria-expanded)
 * whose list of the actions that apply opens under it, next in the tab order; Escape or leaving it
 * closes it, focus back on the button. An action that cannot succeed now is shown disabled, with
 * why. Choosing one closes the list and puts focus on the button before the confirm dialog opens,
 * so focus returns there when the dialog closes. Whether the list is open is the view's own state
 * (nothing of the exam depends on it).
 */
function Actions({ row, nameId }: { row: Row; nameId: string }) {
  const { i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const menuId = `${nameId}-actions`;
  const opener = useRef<HTMLButtonElement>(null);
  if (row.actions.length === 0) return <span>—</span>;
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return (
    <span
      className={styles.actions}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close();
        }
      }}
      onBlur={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={opener}
        type="button"
        className={styles.menuButton}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-describedby={nameId}
        onClick={() => setOpen(!open)}
      >
        <Trans>Actions</Trans>
      </button>
      {open && (
        <span id={menuId} className={styles.menu} role="group" aria-labelledby={nameId}>
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
                  onClick={() => {
                    close();
                    row.request(kind);
                  }}
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
        </span>
      )}
    </span>
  );
}

function PupilRow({ row, nameId }: { row: Row; nameId: string }) {
  const hint = row.codeHint;
  const extra = row.extraMinutes;
  return (
    <div role="row" className={styles.row} data-attention={row.attention ?? undefined} data-sitting={row.sittingId}>
      <span role="rowheader" id={nameId} className={styles.nameCell}>
        <span dir="auto" className={styles.name}>
          {row.name}
        </span>{' '}
        <span className={styles.code}>
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
      </span>
      <span role="cell">
        <StateCell row={row} />
      </span>
      <span role="cell">
        <Progress row={row} />
      </span>
      <span role="cell">
        {row.timeLeftSeconds === null ? (
          <span>—</span>
        ) : (
          <span className={`ltr-isolate ${styles.timeLeft}`}>{clock(row.timeLeftSeconds)}</span>
        )}
        {extra > 0 && (
          <span className={styles.extra}>
            {' '}
            <Plural value={extra} one="+# min" other="+# min" />
          </span>
        )}
      </span>
      <span role="cell">
        <Actions row={row} nameId={nameId} />
      </span>
    </div>
  );
}

/** The column headings; a wide screen repeats them (hidden from assistive technology) over each further column. */
function HeaderRow({ hidden }: { hidden?: boolean }) {
  return (
    <div role={hidden ? undefined : 'row'} aria-hidden={hidden || undefined} className={`${styles.row} ${styles.headRow}`} data-repeat={hidden || undefined}>
      <span role={hidden ? undefined : 'columnheader'}>
        <Trans>Pupil</Trans>
      </span>
      <span role={hidden ? undefined : 'columnheader'}>
        <Trans>State</Trans>
      </span>
      <span role={hidden ? undefined : 'columnheader'}>
        <Trans>Progress</Trans>
      </span>
      <span role={hidden ? undefined : 'columnheader'}>
        <Trans>Time left</Trans>
      </span>
      <span role={hidden ? undefined : 'columnheader'}>
        <Trans>Actions</Trans>
      </span>
    </div>
  );
}

export const filterLabels: Record<RosterFilter, MessageDescriptor> = {
  all: msg`All`,
  attention: msg`Needs attention`,
  not_started: msg`Not started`,
  in_exam: msg`In the exam`,
  finished: msg`Finished`,
  ended: msg`Cancelled or expired`,
};

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
  const searchId = useId();
  const captionId = useId();
  const { connection } = roster;
  const updated = connection.updatedAt === null ? '' : timeOf(connection.updatedAt);
  const title = roster.schedule ? roster.schedule.name || roster.schedule.code : '';
  const shown = roster.rows.length;
  const total = roster.total;
  const perColumn = Math.ceil(shown / roster.columns);

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
    <section aria-labelledby="proctor-roster" className={styles.roster}>
      <div className={styles.titleRow}>
        <PageHeading id="proctor-roster">
          <span dir="auto">{title}</span>{' '}
          {roster.schedule && (
            <span className={styles.code}>
              <span className="ltr-isolate">{roster.schedule.code}</span>
            </span>
          )}
        </PageHeading>
        <div className={styles.titleActions}>
          {roster.status === 'ready' && (
            <button type="button" className={`button ${styles.compactButton}`} onClick={roster.extendRoom} disabled={!roster.canExtendRoom}>
              <ClockIcon />
              {roster.venueId === null ? <Trans>Extend time for everyone</Trans> : <Trans>Extend time for this room</Trans>}
            </button>
          )}
          <button type="button" className={`button ${styles.compactButton}`} onClick={roster.backToSchedules} disabled={!roster.canLeave}>
            <Trans>All schedules</Trans>
          </button>
          <button type="button" className={`button ${styles.compactButton}`} onClick={roster.openAudit} disabled={!roster.canLeave}>
            <Trans>Audit log</Trans>
          </button>
        </div>
      </div>

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
            <div className={styles.inlineField}>
              <label htmlFor={searchId}>
                <Trans>Search by name or code</Trans>
              </label>
              <input
                id={searchId}
                type="search"
                className={styles.compactInput}
                value={roster.search}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => roster.setSearch(event.target.value)}
              />
            </div>
            {roster.rooms.length > 0 && (
              <div className={styles.inlineField}>
                <label htmlFor={filterId}>
                  <Trans>Room</Trans>
                </label>
                <select
                  id={filterId}
                  className={styles.compactInput}
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
            <div role="group" aria-label={i18n._(msg`Show pupils`)} className={styles.filters}>
              {roster.filters.map(({ filter, count, chosen }) => (
                <button
                  key={filter}
                  type="button"
                  className={styles.filterButton}
                  aria-pressed={chosen}
                  data-filter={filter}
                  onClick={() => roster.chooseFilter(filter)}
                >
                  {filter === 'attention' && count > 0 && <WarningIcon />}
                  <span>{i18n._(filterLabels[filter])}</span> <span className={styles.filterCount}>{count}</span>
                </button>
              ))}
            </div>
          </div>
          <p className={styles.updated}>
            <span aria-live="polite">
              <Plural value={shown} one={`Showing # pupil of ${total}.`} other={`Showing # pupils of ${total}.`} />
            </span>{' '}
            {connection.updatedAt !== null && !connection.lost && (
              <Trans>
                Updated <span className="ltr-isolate">{updated}</span>. The list updates by itself every 5 seconds.
              </Trans>
            )}
          </p>
          {total === 0 ? (
            <p>
              <Trans>No pupils are booked here.</Trans>
            </p>
          ) : shown === 0 ? (
            <p>
              <Trans>No pupil matches the search and the filter.</Trans>
            </p>
          ) : (
            <div className={styles.tableFrame} role="region" aria-labelledby={captionId} tabIndex={0}>
              <span id={captionId} className="visually-hidden">
                <Trans>Pupils of {title}</Trans>
              </span>
              <div
                role="table"
                aria-labelledby={captionId}
                aria-rowcount={shown + 1}
                className={styles.table}
                style={{ '--columns': roster.columns, '--rows': perColumn + 1 } as CSSProperties}
              >
                <HeaderRow />
                {roster.rows.map((row, index) => (
                  <Fragment key={row.sittingId}>
                    {index > 0 && index % perColumn === 0 && <HeaderRow hidden />}
                    <PupilRow row={row} nameId={`${rowIds}-${row.sittingId}`} />
                  </Fragment>
                ))}
              </div>
            </div>
          )}
        </>
      )}
    </section>
  );
}
