/**
 * The testing menu (seed section 2, `testing-menu`) for my-page and foreign-payment pupils:
 * three cards, Exam fee, Test and Results, each with its state in words and an icon (never
 * colour alone). Every seed TestingMenu state is live: "Pay fee" (button), "Fee paid", "Payment
 * not completed" (a checkout is pending: the button opens it again), "Take test" (button),
 * "Exam completed", "Waiting for the result to be released" (with the release date when known)
 * and "View results" (button); past the two years a result can be viewed, the RESULT_VIEW_EXPIRED
 * message instead. In group mode (seed section 3) the fee card says the school paid
 * and nothing asks for the fee. The menu's one primary action is `menu.next`.
 *
 * Presentational: it renders the MenuView it is given (the session's `menuViewOf`,
 * machines/session/session.selectors.ts, from the contract's ChoosePageStatus) and calls back;
 * it decides nothing.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { MenuAction, MenuView } from '../../../machines/session/session.selectors.ts';
import type { MenuApi } from '../../../machines/session/session.connect.ts';
import { LoadFailed } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, CircleIcon, ClockIcon, InfoIcon } from '../../components/icon/icons.tsx';
import { LogOutFoot } from '../../components/log-out-foot/log-out-foot.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { failureMessage } from '../../i18n/failure-messages.ts';
import { formatDate } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import styles from './testing-menu.module.css';

type Tone = 'done' | 'todo' | 'waiting';

function State({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <p className={styles.state} data-tone={tone}>
      {tone === 'done' ? <CheckIcon /> : tone === 'waiting' ? <ClockIcon /> : <CircleIcon />}
      <span>{children}</span>
    </p>
  );
}

function Note({ children }: { children: ReactNode }) {
  return (
    <p className={styles.note}>
      <InfoIcon />
      <span>{children}</span>
    </p>
  );
}

function Card({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <li className={styles.card}>
      <h2 className={styles.title}>{title}</h2>
      {children}
    </li>
  );
}

function Action({ action, next, disabled, onClick, children }: {
  action: MenuAction;
  next: MenuAction | null;
  disabled?: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`button ${styles.action}`}
      data-variant={next === action ? 'primary' : undefined}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/**
 * The card's button where this host offers the step (`onClick` given); otherwise the step as a
 * state in words (`state`, or the button's own words), so no button leads nowhere.
 */
function ActionOrState({ action, next, onClick, tone, state, children }: {
  action: MenuAction;
  next: MenuAction | null;
  onClick?: () => void;
  tone: Tone;
  state?: ReactNode;
  children: ReactNode;
}) {
  if (!onClick) return <State tone={tone}>{state ?? children}</State>;
  return (
    <Action action={action} next={next} onClick={onClick}>
      {children}
    </Action>
  );
}

function FeeCard({ menu, onPayFee }: { menu: MenuView; onPayFee?: () => void }) {
  return (
    <Card title={<Trans>Exam fee</Trans>}>
      {menu.fee === 'paid' && (
        <State tone="done">
          <Trans>Fee paid</Trans>
        </State>
      )}
      {menu.fee === 'school_paid' && (
        <>
          <State tone="done">
            <Trans>Paid by your school</Trans>
          </State>
          <Note>
            <Trans>Your school applied for this test for its pupils. You do not pay an exam fee.</Trans>
          </Note>
        </>
      )}
      {menu.fee === 'pending' && (
        <>
          <State tone="waiting">
            <Trans>Payment not completed</Trans>
          </State>
          <Note>
            <Trans>The payment has not gone through yet. You can finish it now; nothing is charged twice.</Trans>
          </Note>
          {onPayFee && (
            <Action action="pay_fee" next={menu.next} onClick={onPayFee}>
              <Trans>Go to the payment</Trans>
            </Action>
          )}
        </>
      )}
      {menu.fee === 'to_pay' && (
        <>
          <ActionOrState action="pay_fee" next={menu.next} onClick={onPayFee} tone="todo">
            <Trans>Pay fee</Trans>
          </ActionOrState>
          <Note>
            <Trans>The exam fee is paid online by card, before the test.</Trans>
          </Note>
        </>
      )}
    </Card>
  );
}

function TestCard({ menu, onTakeTest }: { menu: MenuView; onTakeTest(): void }) {
  const { exam } = menu;
  return (
    <Card title={<Trans>Test</Trans>}>
      {exam === 'completed' && (
        <State tone="done">
          <Trans>Exam completed</Trans>
        </State>
      )}
      {exam === 'cancelled' && (
        <Note>
          <Trans>This exam has been cancelled. Please ask your teacher.</Trans>
        </Note>
      )}
      {exam === 'expired' && (
        <Note>
          <Trans>The test period has ended.</Trans>
        </Note>
      )}
      {(exam === 'can_take' || exam === 'needs_fee' || exam === 'unavailable') && (
        <>
          <Action action="take_test" next={menu.next} disabled={exam !== 'can_take'} onClick={onTakeTest}>
            <Trans>Take test</Trans>
          </Action>
          {exam === 'needs_fee' && (
            <Note>
              <Trans>You can take the test once the exam fee is paid.</Trans>
            </Note>
          )}
          {exam === 'unavailable' && (
            <Note>
              <Trans>You cannot take the test right now.</Trans>
            </Note>
          )}
        </>
      )}
    </Card>
  );
}

function ResultsCard({ menu, onViewResults }: { menu: MenuView; onViewResults?: () => void }) {
  const { language } = useLanguage();
  const { i18n } = useLingui();
  const releaseDate = menu.releaseAt ? formatDate(menu.releaseAt, language) : null;
  return (
    <Card title={<Trans>Results</Trans>}>
      {menu.result === 'viewable' && (
        <ActionOrState action="view_results" next={menu.next} onClick={onViewResults} tone="done" state={<Trans>Results released</Trans>}>
          <Trans>View results</Trans>
        </ActionOrState>
      )}
      {menu.result === 'waiting' && (
        <>
          <State tone="waiting">
            <Trans>Waiting for the result to be released</Trans>
          </State>
          <Note>
            {releaseDate ? (
              <Trans>The result will be released on {releaseDate}.</Trans>
            ) : (
              <Trans>Results can be viewed from one week after the exam.</Trans>
            )}
          </Note>
        </>
      )}
      {menu.result === 'expired' && <Note>{i18n._(failureMessage('RESULT_VIEW_EXPIRED'))}</Note>}
      {menu.result === 'not_finished' && (
        <Note>
          <Trans>Your result will be shown here one week after the exam.</Trans>
        </Note>
      )}
      {menu.result === 'none' && (
        <Note>
          <Trans>There is no result for this exam.</Trans>
        </Note>
      )}
    </Card>
  );
}

/**
 * The session connect's menu. A host without the payment screen (or the results) may leave out
 * `payFee` (`viewResults`): the card then shows its state in words and no button, so no button
 * leads nowhere.
 */
export function TestingMenuScreen({ api }: { api: Omit<MenuApi, 'payFee' | 'viewResults'> & Partial<Pick<MenuApi, 'payFee' | 'viewResults'>> }) {
  const { status, menu, error } = api;
  return (
    <Page align="center" width="wide">
      <PageHeading>
        <Trans>Menu</Trans>
      </PageHeading>
      {status === 'loading' && (
        <SkeletonRegion>
          <div className={styles.skeletonCards}>
            {[0, 1, 2].map((card) => (
              <SkeletonBlock key={card} shape="box" blockSize="9rem" />
            ))}
          </div>
        </SkeletonRegion>
      )}
      {status === 'error' && <LoadFailed code={error} onRetry={api.retry} />}
      {status === 'ready' && menu && (
        <ul className={styles.cards}>
          {menu.fee !== 'not_required' && <FeeCard menu={menu} onPayFee={api.payFee} />}
          <TestCard menu={menu} onTakeTest={api.takeTest} />
          <ResultsCard menu={menu} onViewResults={api.viewResults} />
        </ul>
      )}
      <LogOutFoot onLogout={api.logout} />
    </Page>
  );
}
