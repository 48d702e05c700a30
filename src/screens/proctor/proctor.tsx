/**
 * The proctor page (/proctor): renders its one `api` prop, what `connect`
 * (machines/proctor/proctor.connect.ts) gives for the proctor actor (and, for an administrator,
 * its child `administration`), which src/app/connect/proctor.tsx subscribes to and re-reads every
 * second so "12 s ago" and the time left move on their own. It decides nothing, fetches nothing,
 * navigates nowhere: every button sends the event connect hands it.
 *
 * One part at a time: the staff sign-in, the schedules, the roster (with the confirm dialog over
 * it, the rest of the page inert while the dialog is open) or the audit log; a header with who is
 * signed in and "Sign out" on every signed-in part. An administrator (the console's part is there)
 * sees the console's navigation around them: exam day is one section.
 */
import { Trans } from '@lingui/react/macro';
import type { ProctorApi } from '../../../machines/proctor/proctor.connect.ts';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { AdministrationConsole } from '../administration/administration.tsx';
import { ActionDialog } from './action-dialog.tsx';
import { AuditLog } from './audit-log.tsx';
import { RosterView } from './roster.tsx';
import { ScheduleList } from './schedule-list.tsx';
import { StaffFailure } from './staff-failure.tsx';
import { StaffLogin } from './staff-login.tsx';
import styles from './proctor.module.css';

export function ProctorScreen({ api }: { api: ProctorApi }) {
  const signedIn = api.staff !== null && api.phase !== 'signingOut';
  const staffName = api.staff?.name ?? '';
  const orgName = api.staff?.org_name ?? '';

  if (api.phase === 'signedOut') {
    return (
      <Page align="center">
        <StaffLogin login={api.login} />
      </Page>
    );
  }

  if (api.phase === 'restoring' || api.phase === 'signingOut') {
    return (
      <Page align="center">
        <div className="card">
          <SkeletonRegion>
            <SkeletonBlock inlineSize="60%" blockSize="2.25rem" />
            <SkeletonBlock shape="box" blockSize="3rem" />
            <SkeletonBlock shape="button" />
          </SkeletonRegion>
        </div>
      </Page>
    );
  }

  if (api.phase === 'restoreFailed') {
    return (
      <Page align="center">
        <div className="card">
          <PageHeading>
            <Trans>Staff sign-in</Trans>
          </PageHeading>
          <StaffFailure
            code={api.restore.failure}
            message={staffFailureMessage(api.restore.failure ?? 'GENERIC_ERROR')}
            onRetry={api.restore.retry}
            other={{ label: <Trans>Sign in again</Trans>, onClick: api.logout }}
          />
        </div>
      </Page>
    );
  }

  const examDay = (
    <>
      {api.phase === 'schedules' && <ScheduleList schedules={api.schedules} />}
      {api.phase === 'roster' && <RosterView roster={api.roster} />}
      {api.phase === 'audit' && <AuditLog audit={api.audit} />}
    </>
  );

  return (
    <>
      <div className={styles.page} inert={api.dialog !== null}>
        {signedIn && api.staff && (
          <header className={styles.header}>
            <p className={styles.who}>
              {api.staff.org_name === null ? (
                <Trans>
                  Signed in as <strong dir="auto">{staffName}</strong> · administrator
                </Trans>
              ) : (
                <Trans>
                  Signed in as <strong dir="auto">{staffName}</strong> · <span dir="auto">{orgName}</span>
                </Trans>
              )}
            </p>
            <button type="button" className={`button ${styles.compactButton}`} onClick={api.logout}>
              <Trans>Sign out</Trans>
            </button>
          </header>
        )}
        <Page align="start" width="wide" className={styles.column}>
          {api.administration ? <AdministrationConsole api={api.administration} examDay={examDay} signInAgain={api.logout} /> : examDay}
        </Page>
      </div>
      {api.dialog && <ActionDialog dialog={api.dialog} />}
    </>
  );
}
