/**
 * The "not logged in" view (seed section 2, wrapper behaviour): shown when a page that needs a
 * login is opened without one, with the exam header and its placeholders above it, as the seed
 * says. One way on: the login page.
 */
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { ExamHeader } from '../../components/exam-header/exam-header.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import styles from './not-logged-in.module.css';

export interface NotLoggedInScreenProps {
  onGoToLogin(): void;
  /** Why a login is needed here (the /403 view says the page needs one); by default, "Please log in to continue." */
  children?: ReactNode;
}

export function NotLoggedInScreen({ onGoToLogin, children }: NotLoggedInScreenProps) {
  return (
    <div className={styles.frame}>
      <ExamHeader questionNumber={null} questionCount={null} deadlineAt={null} clockOffsetMs={0} />
      <Page align="center">
        <div className="card">
          <PageHeading>
            <Trans>You are not logged in.</Trans>
          </PageHeading>
          <p>{children ?? <Trans>Please log in to continue.</Trans>}</p>
          <button type="button" className="button" data-variant="primary" onClick={onGoToLogin}>
            <Trans>Go to the login page</Trans>
          </button>
        </div>
      </Page>
    </div>
  );
}
