/**
 * The audit trail of the schedule being watched: who (a proctor, or Gradus itself for automatic
 * time credits), when, what (with its detail: minutes added, answers archived, how many pupils),
 * for which pupil, and why; newest first. A skeleton while loading, a failure with "Try again",
 * an empty state, and the way back to the roster. Renders ProctorApi['audit'].
 */
import { useLingui } from '@lingui/react';
import { Plural, Trans } from '@lingui/react/macro';
import type { AuditEntry } from '../../../contract/admin.ts';
import type { ProctorApi } from '../../../machines/proctor/proctor.connect.ts';
import { ArrowIcon } from '../../components/icon/icons.tsx';
import { PageHeading } from '../../components/page/page.tsx';
import { TableHead } from '../../components/table-head/table-head.tsx';
import { auditActionLabels } from '../../i18n/administration-messages.ts';
import { formatDate, formatDuration } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { ListState, RefreshButton } from '../administration/list-state.tsx';
import { clockTime } from './roster.tsx';
import styles from './proctor.module.css';

/** Newest first, whatever order the entries came in. */
function newestFirst(entries: readonly AuditEntry[]): AuditEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || b.id - a.id);
}

/** An action of the deployment (an import, a code re-issued...) on a test period's trail. */
function ActionLabel({ action }: { action: AuditEntry['action'] }) {
  const { i18n } = useLingui();
  return <>{i18n._(auditActionLabels[action])}</>;
}

function What({ entry }: { entry: AuditEntry }) {
  const { language } = useLanguage();
  const minutes = Math.round((entry.detail.seconds ?? 0) / 60);
  // Credits are measured to the second (98 s is "1 minute, 38 seconds", never "2 minutes").
  const duration = formatDuration(entry.detail.seconds ?? 0, language);
  switch (entry.action) {
    case 'move_terminal':
      return <Trans>Moved to another terminal</Trans>;
    case 'retake': {
      const archived = entry.detail.archived_answers ?? 0;
      return <Plural value={archived} one="Reset for a retake (# answer archived)" other="Reset for a retake (# answers archived)" />;
    }
    case 'extend':
      return <Plural value={minutes} one="Time extended by # minute" other="Time extended by # minutes" />;
    case 'extend_room': {
      const sittings = entry.detail.sittings ?? 0;
      return (
        <>
          <Plural value={minutes} one="Time extended by # minute" other="Time extended by # minutes" />{' '}
          <Plural value={sittings} one="for # pupil" other="for # pupils" />
        </>
      );
    }
    case 'outage_credit':
      return <Trans>{duration} credited for a server outage</Trans>;
    case 'maintenance_credit':
      return <Trans>{duration} credited for maintenance</Trans>;
    default:
      return <ActionLabel action={entry.action} />;
  }
}

export function AuditLog({ audit }: { audit: ProctorApi['audit'] }) {
  const { language } = useLanguage();
  const when = (iso: string) => `${formatDate(iso, language)} ${clockTime(iso, language)}`;
  const scheduleName = audit.scheduleName ?? '';

  return (
    <section aria-labelledby="proctor-audit">
      <div className={styles.titleRow}>
        <PageHeading id="proctor-audit">
          <Trans>Audit log</Trans>
        </PageHeading>
        <div className="button-row">
          <button type="button" className="button" onClick={audit.close}>
            <ArrowIcon direction="back" />
            <Trans>Back to the roster</Trans>
          </button>
          <RefreshButton list={audit} />
        </div>
      </div>
      <p className={styles.sub} dir="auto">
        {scheduleName}
      </p>
      <ListState
        list={audit}
        empty={audit.entries.length === 0}
        emptyText={<Trans>Nothing has been done in this schedule yet.</Trans>}
        skeleton={{ boxes: 2, blockSize: '3rem' }}
      >
        <div className={styles.tableFrame} role="region" aria-labelledby="proctor-audit" tabIndex={0}>
          <table className={styles.table}>
            <caption className="visually-hidden">
              <Trans>What was done in {scheduleName}, newest first</Trans>
            </caption>
            <TableHead columns={[<Trans>When</Trans>, <Trans>Who</Trans>, <Trans>What</Trans>, <Trans>Pupil</Trans>, <Trans>Why</Trans>]} />
            <tbody>
              {newestFirst(audit.entries).map((entry) => (
                <tr key={entry.id} data-action={entry.action}>
                  <td>
                    <span className="ltr-isolate">{when(entry.at)}</span>
                  </td>
                  <td dir="auto">{entry.actor === 'system' ? <Trans>Gradus (automatic)</Trans> : entry.staff_name}</td>
                  <td>
                    <What entry={entry} />
                  </td>
                  <td dir="auto">{entry.examinee_name ?? '—'}</td>
                  <td dir="auto" className={styles.reasonCell}>
                    {entry.reason}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListState>
    </section>
  );
}
