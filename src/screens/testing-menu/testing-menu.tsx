/**
 * The testing menu (seed section 2, `testing-menu`) for my-page and foreign-payment pupils:
 * three cards, Payment, Take test and Results, each with its state in words and an icon
 * (never colour alone), from /get-status-choose-page. The seed's TestingMenu states: pay fee,
 * fee paid, payment not completed, take test, exam completed, waiting for the result to be
 * released, view results. Payment and results screens come with a later issue, so their
 * cards show a state, never a button that leads nowhere. The one primary action is "Take test".
 */
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import { ScheduleHistoryStatus, type ChoosePageStatus } from '../../shared/contract.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, CircleIcon, ClockIcon, InfoIcon } from '../../components/icon/icons.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import styles from './testing-menu.module.css';

export interface TestingMenuScreenProps {
  status: 'loading' | 'ready' | 'error';
  menu: ChoosePageStatus | null;
  error: FailureCode | null;
  onTakeTest(): void;
  onRetry(): void;
  onLogout(): void;
}

/** Payment status (seed section 4). */
const PaymentStatus = { NOT_PAID: 0, PENDING: 1, PAID: 2 } as const;

/** Statuses in which the test has been sat (completed, and everything that follows it). */
const completedStatuses: ReadonlySet<number> = new Set([
  ScheduleHistoryStatus.COMPLETED,
  ScheduleHistoryStatus.CANCELED_COMPLETED,
  ScheduleHistoryStatus.STATISTIC_COMPLETED,
  ScheduleHistoryStatus.RESULT_PUBLIC,
  ScheduleHistoryStatus.SCORING_COMPLETED,
]);

type Tone = 'done' | 'todo' | 'waiting';

function State({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <p className={styles.state} data-tone={tone}>
      {tone === 'done' ? <CheckIcon /> : tone === 'waiting' ? <ClockIcon /> : <CircleIcon />}
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

function Menu({ menu, onTakeTest }: { menu: ChoosePageStatus; onTakeTest(): void }) {
  const fee = menu.exam_fee;
  const feeSettled = !fee.required || fee.status === PaymentStatus.PAID;
  const completed = menu.exam.status !== null && completedStatuses.has(menu.exam.status);
  return (
    <ul className={styles.cards}>
      {fee.required && (
        <Card title={<Trans>Exam fee</Trans>}>
          {fee.status === PaymentStatus.PAID && (
            <State tone="done">
              <Trans>Fee paid</Trans>
            </State>
          )}
          {fee.status === PaymentStatus.PENDING && (
            <>
              <State tone="waiting">
                <Trans>Payment not completed</Trans>
              </State>
              <p className={styles.note}>
                <Trans>The payment has not gone through yet. Please ask your teacher or a parent.</Trans>
              </p>
            </>
          )}
          {fee.status === PaymentStatus.NOT_PAID && (
            <>
              <State tone="todo">
                <Trans>Pay fee</Trans>
              </State>
              <p className={styles.note}>
                <Trans>The exam fee is paid online by card. Online payment will open here.</Trans>
              </p>
            </>
          )}
        </Card>
      )}
      <Card title={<Trans>Test</Trans>}>
        {completed ? (
          <State tone="done">
            <Trans>Exam completed</Trans>
          </State>
        ) : (
          <>
            <button
              type="button"
              className={`button ${styles.take}`}
              data-variant="primary"
              disabled={!menu.exam.can_take}
              onClick={onTakeTest}
            >
              <Trans>Take test</Trans>
            </button>
            {!menu.exam.can_take && (
              <p className={styles.note}>
                <InfoIcon />
                <span>
                  {feeSettled ? (
                    <Trans>You cannot take the test right now.</Trans>
                  ) : (
                    <Trans>You can take the test once the exam fee is paid.</Trans>
                  )}
                </span>
              </p>
            )}
          </>
        )}
      </Card>
      <Card title={<Trans>Results</Trans>}>
        {menu.result.released ? (
          <>
            <State tone="done">
              <Trans>View results</Trans>
            </State>
            <p className={styles.note}>
              <Trans>Your results have been released. They will open here.</Trans>
            </p>
          </>
        ) : (
          <State tone="waiting">
            <Trans>Waiting for the result to be released</Trans>
          </State>
        )}
      </Card>
    </ul>
  );
}

export function TestingMenuScreen({ status, menu, error, onTakeTest, onRetry, onLogout }: TestingMenuScreenProps) {
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
      {status === 'error' && (
        <>
          <FailureAlert code={error ?? 'GENERIC_ERROR'} />
          <button type="button" className="button" data-variant="primary" onClick={onRetry}>
            <Trans>Try again</Trans>
          </button>
        </>
      )}
      {status === 'ready' && menu && <Menu menu={menu} onTakeTest={onTakeTest} />}
      <div className={styles.foot}>
        <button type="button" className="button" onClick={onLogout}>
          <Trans>Log out</Trans>
        </button>
      </div>
    </Page>
  );
}
