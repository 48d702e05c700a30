/**
 * No access, at /403 (seed section 2, rule 7): the page needs a stored login and there is none.
 * One way on: the login page; the machine decides which one.
 */
import { Trans } from '@lingui/react/macro';
import { Page, PageHeading } from '../../components/page/page.tsx';

export interface ForbiddenScreenProps {
  onGoToLogin(): void;
}

export function ForbiddenScreen({ onGoToLogin }: ForbiddenScreenProps) {
  return (
    <Page align="center">
      <div className="card">
        <PageHeading>
          <Trans>Please log in</Trans>
        </PageHeading>
        <p>
          <Trans>You need to log in to see this page.</Trans>
        </p>
        <button type="button" className="button" data-variant="primary" onClick={onGoToLogin}>
          <Trans>Go to the login page</Trans>
        </button>
      </div>
    </Page>
  );
}
