/**
 * The short result (seed section 2, `short-result`; GET /get-short-result): score out of the
 * maximum, passed or not (words and an icon, never colour alone), the correct rate as a
 * percentage with one decimal (seed section 3) in the language's numbers, the subject with its
 * level and the exam date in the language's date format (seed section 9). From here the pupil
 * buys the result sheet or certificate, or opens the score report once the sheet is owned.
 *
 * A result that is not released yet, or no longer viewable (two years, seed section 9), is not a
 * failure to retry: the screen says why and offers the way back to the menu.
 *
 * Presentational: it renders what results.connect.ts gives it (ShortResultApi: what can be
 * bought, opened or tried again is decided there) and calls back.
 */
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { ShortResultApi } from '../../../machines/results/results.connect.ts';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import type { ShortResult } from '../../../contract/results.ts';
import { LoadFailed } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, ClockIcon, InfoIcon, NotPassedIcon } from '../../components/icon/icons.tsx';
import { DetailRow, Details } from '../../components/details/details.tsx';
import { CardPage } from '../../components/page/card-page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { failureMessages } from '../../i18n/failure-messages.ts';
import { formatDate, formatNumber, formatPercent } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { levelName } from '../../i18n/levels.ts';
import { subjectName } from '../../i18n/subjects.ts';
import { BackToMenu, BuyButton, OpenReportButton } from '../result-parts/result-parts.tsx';
import styles from './short-result.module.css';

/** A refusal that says when the result can be seen (not released yet, no longer viewable). */
function Unavailable({ code }: { code: FailureCode }) {
  const { i18n } = useLingui();
  return (
    <div className="alert" data-tone="info" role="status" data-code={code}>
      {code === 'RESULT_NOT_RELEASED' ? <ClockIcon /> : <InfoIcon />}
      <p>{i18n._(failureMessages[code])}</p>
    </div>
  );
}

function Result({ result }: { result: ShortResult }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const score = formatNumber(result.score, language);
  const maxScore = formatNumber(result.max_score, language);
  const correct = formatNumber(result.correct_count, language);
  const questions = formatNumber(result.question_count, language);
  const subject = subjectName(i18n, result.subject);
  const level = levelName(i18n, result.level, language);
  const viewableUntil = formatDate(result.viewable_until, language);
  return (
    <>
      <div className={styles.summary}>
        <p className={styles.outcome} data-passed={result.passed}>
          {result.passed ? <CheckIcon /> : <NotPassedIcon />}
          <span>{result.passed ? <Trans>Passed</Trans> : <Trans>Did not pass</Trans>}</span>
        </p>
        <p className={styles.score}>
          <span className="visually-hidden">
            <Trans>Score</Trans>
          </span>
          <span className={styles.scoreValue}>
            <Trans>
              {score} <span className={styles.scoreMax}>/ {maxScore}</span>
            </Trans>
          </span>
        </p>
      </div>
      <Details>
        <DetailRow label={<Trans>Subject</Trans>}>
          <Trans>
            {subject}, <bdi>{level}</bdi>
          </Trans>
        </DetailRow>
        <DetailRow label={<Trans>Exam date</Trans>}>{formatDate(result.exam_date, language)}</DetailRow>
        <DetailRow label={<Trans>Correct answer rate</Trans>}>
          {formatPercent(result.correct_rate / 100, language)}{' '}
          <span className={styles.aside}>
            <Trans>
              ({correct} of {questions} questions correct)
            </Trans>
          </span>
        </DetailRow>
      </Details>
      <p className={styles.note}>
        <Trans>You can view this result until {viewableUntil}.</Trans>
      </p>
    </>
  );
}

export function ShortResultScreen({ api }: { api: ShortResultApi }) {
  const { status, result, error, canRetry, canOpenReport, canBuy, onBuy, onOpenReport, onBack, onRetry } = api;
  return (
    <CardPage heading={<Trans>Your result</Trans>}>
      {status === 'loading' && (
        <SkeletonRegion>
          <SkeletonBlock inlineSize="10rem" blockSize="3rem" />
          {[0, 1, 2, 3].map((row) => (
            <SkeletonBlock key={row} blockSize="1.75rem" />
          ))}
          <div className="button-row">
            <SkeletonBlock shape="button" inlineSize="16rem" />
          </div>
        </SkeletonRegion>
      )}

      {status === 'error' &&
        (!canRetry ? (
          <Unavailable code={error ?? 'GENERIC_ERROR'} />
        ) : (
          <LoadFailed code={error} onRetry={onRetry} />
        ))}

      {status === 'ready' && result && (
        <>
          <Result result={result} />
          <div className="button-row">
            {canOpenReport && <OpenReportButton onOpenReport={onOpenReport} />}
            {canBuy && <BuyButton primary={!canOpenReport} onBuy={onBuy} />}
          </div>
        </>
      )}

      {status !== 'loading' && <BackToMenu onBack={onBack} />}
    </CardPage>
  );
}
