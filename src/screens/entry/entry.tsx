/**
 * What the entry routes show (seed section 2, rules 1 to 4: /oauth, /oauth-kaigen,
 * /oauth-kaigen-philippine, /oauth-kenya, /oauth-egypt, /app-entry): a calm skeleton while the
 * session machine reads the query and signs the pupil in, and, when that failed, why (an SSO
 * error code or a failed call) with one way on: the login page.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { SessionApi } from '../../../machines/session/session.connect.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { ErrorIcon } from '../../components/icon/icons.tsx';
import { CardPage } from '../../components/page/card-page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { ssoErrorMessage } from '../../i18n/sso-messages.ts';

/** The session's connect: its `entry` part, and "Go to the login page". */
export function EntryScreen({ api }: { api: Pick<SessionApi, 'entry' | 'goToLogin'> }) {
  const { status, error } = api.entry;
  const { i18n } = useLingui();
  if (status === 'working') {
    return (
      <CardPage heading={<Trans>Signing you in…</Trans>}>
        <SkeletonRegion>
          <SkeletonBlock inlineSize="85%" />
          <SkeletonBlock inlineSize="60%" />
        </SkeletonRegion>
      </CardPage>
    );
  }
  return (
    <CardPage heading={<Trans>Could not log in</Trans>}>
      {error?.kind === 'failure' ? (
        <FailureAlert code={error.code} />
      ) : (
        <div className="alert" role="alert" data-code={error?.code ?? 'unknown'}>
          <ErrorIcon />
          <div>
            <p>{i18n._(ssoErrorMessage(error?.code ?? 'unknown'))}</p>
          </div>
        </div>
      )}
      <button type="button" className="button" data-variant="primary" onClick={api.goToLogin}>
        <Trans>Go to the login page</Trans>
      </button>
    </CardPage>
  );
}
