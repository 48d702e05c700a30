/**
 * The administrator's console on /proctor: a side navigation of the sections (buttons, the one
 * shown marked aria-current) and the section itself. It renders its `api` prop, what the
 * administration connect gives for the proctor machine's child `administration` (the proctor
 * connect's `administration` part); exam day is the proctor page's own parts, passed in. Each section's heading takes focus when the section opens. When a
 * call met a 401 the console says the staff session ended, with "Sign in again".
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { AdministrationApi } from '../../../machines/administration/administration.connect.ts';
import { sectionLabels } from '../../i18n/administration-messages.ts';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { StaffFailure } from '../proctor/staff-failure.tsx';
import { DeploymentAudit } from './deployment-audit.tsx';
import { Documents } from './documents.tsx';
import { Exams } from './exams.tsx';
import { Imports } from './imports.tsx';
import { SchoolsAndPupils } from './schools.tsx';
import { Staff } from './staff.tsx';
import styles from './administration.module.css';

export function AdministrationConsole({ api, examDay, signInAgain }: { api: AdministrationApi; examDay: ReactNode; signInAgain(): void }) {
  const { i18n, t } = useLingui();

  if (api.sessionEnded) {
    return (
      <StaffFailure code="NOT_LOGGED_IN" message={staffFailureMessage('NOT_LOGGED_IN')} other={{ label: <Trans>Sign in again</Trans>, onClick: signInAgain }} />
    );
  }

  return (
    <div className={styles.console}>
      <nav className={styles.nav} aria-label={t`Administration`}>
        <ul>
          {api.sections.map((section) => (
            <li key={section.id}>
              <button type="button" className={styles.navButton} aria-current={section.current ? 'page' : undefined} onClick={section.choose}>
                {i18n._(sectionLabels[section.id])}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className={styles.section} data-section={api.section}>
        {api.section === 'examDay' && examDay}
        {api.section === 'schools' && <SchoolsAndPupils api={api.schools} />}
        {api.section === 'imports' && <Imports api={api.imports} />}
        {api.section === 'exams' && <Exams api={api.exams} />}
        {api.section === 'documents' && <Documents api={api.documents} />}
        {api.section === 'staff' && <Staff api={api.staff} />}
        {api.section === 'audit' && <DeploymentAudit api={api.audit} />}
      </div>
    </div>
  );
}
