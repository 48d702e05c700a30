/**
 * The deployment's audit log: who (a staff member, or Gradus itself), when, what (the action and
 * the record), and the record before and after, newest first.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { AdministrationApi } from '../../../machines/administration/administration.connect.ts';
import { formatDate, formatTime } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { auditActionLabels } from '../../i18n/administration-messages.ts';
import { ListState, RefreshButton } from './list-state.tsx';
import { AdminTable } from './admin-table.tsx';
import { AdminSection } from './admin-section.tsx';
import styles from './administration.module.css';

/** A record's fields as "key: value", one a line (the values are the server's, not translated). */
function fieldsOf(record: Record<string, unknown> | null): string {
  if (!record) return '—';
  return Object.entries(record)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

export function DeploymentAudit({ api }: { api: AdministrationApi['audit'] }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  return (
    <AdminSection id="admin-audit" title={<Trans>Audit log</Trans>} actions={<RefreshButton list={api} />}>
      <ListState list={api} empty={api.entries.length === 0} emptyText={<Trans>Nothing has been changed yet.</Trans>}>
        <AdminTable
          labelledBy="admin-audit"
          columns={[
            <Trans>When</Trans>,
            <Trans>Who</Trans>,
            <Trans>What</Trans>,
            <Trans>Before</Trans>,
            <Trans>After</Trans>,
          ]}
        >
          {api.entries.map((entry) => (
            <tr key={entry.id} data-action={entry.action}>
              <td><span className="ltr-isolate">{`${formatDate(entry.at, language)} ${formatTime(entry.at, language)}`}</span></td>
              <td dir="auto">{entry.actor === 'system' ? <Trans>Gradus (automatic)</Trans> : (entry.staff_name ?? entry.staff_login_id)}</td>
              <td>
                {i18n._(auditActionLabels[entry.action])}
                {entry.entity && (
                  <>
                    <br />
                    <span className="ltr-isolate">{entry.entity}</span>
                  </>
                )}
              </td>
              <td dir="ltr"><pre className={styles.record}>{fieldsOf(entry.before)}</pre></td>
              <td dir="ltr"><pre className={styles.record}>{fieldsOf(entry.after)}</pre></td>
            </tr>
          ))}
        </AdminTable>
      </ListState>
    </AdminSection>
  );
}
