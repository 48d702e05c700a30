/**
 * The score report (seed section 2, `score-report/{id}`, "Score report content"): examinee
 * information, the overall result (subject with level, name, age, country or region, grade,
 * correct answer rate, certificate, passed or not, rank at the level unless the school hides
 * rankings: display flag 3, the server sends no rank), a chart and rating (the level's score
 * distribution too, unless the school hides rankings: it would show the pupil their place, and the
 * server sends none), the per-unit analysis against all examinees and the organisation (units
 * named in the pupil's language: src/i18n/units.ts), a wrong-answer example, and print and
 * save-PDF buttons.
 *
 * Presentational: it renders its one `api` prop, results.connect.ts's ScoreReportApi (in the app,
 * the results connect's part; on the print route, the document connect's). `variant: 'print'` is
 * the document the PDF renderer and the Android app print (`score-report-embed/{id}`): no buttons.
 * The print stylesheet gives the on-screen variant the same paper layout (A4, no buttons, page
 * breaks between sections).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { ScoreReportApi, ScoreReportScreenApi } from '../../../machines/results/results.connect.ts';
import type { FailureCode } from '../../../machines/shared/ports.ts';
import type { ScoreReport } from '../../../contract/results.ts';
import { FailureAlert } from '../../components/failure-alert/failure-alert.tsx';
import { CheckIcon, ClockIcon, InfoIcon, WarningIcon } from '../../components/icon/icons.tsx';
import { MathText } from '../../components/math/math-text.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { TableHead } from '../../components/table-head/table-head.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';
import { LinkedText } from '../../components/linked-text/linked-text.tsx';
import { formatDate, formatNumber, formatPercent, formatRegion } from '../../i18n/format.ts';
import { gradeName } from '../../i18n/grades.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import type { LanguageKey } from '../../../contract/languages.ts';
import { subjectName } from '../../i18n/subjects.ts';
import { unitName } from '../../i18n/units.ts';
import { DistributionChart, UnitsChart } from './score-report-charts.tsx';
import styles from './score-report.module.css';

/** A percentage 0-100 with one decimal, in the language's numbering system (seed section 3). */
export function formatRate(percent: number, language: LanguageKey): string {
  return formatPercent(percent / 100, language);
}


function Row({ label, children, item }: { label: ReactNode; children: ReactNode; item: string }) {
  return (
    <div className={styles.row} data-item={item}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Section({ title, children, item }: { title: ReactNode; children: ReactNode; item: string }) {
  return (
    <section className={styles.section} data-item={item} aria-labelledby={`score-report-${item}`}>
      <h2 id={`score-report-${item}`} className={styles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Loading() {
  return (
    <SkeletonRegion>
      <SkeletonBlock inlineSize="60%" blockSize="2.25rem" />
      {['8rem', '14rem', '10rem'].map((blockSize) => (
        <SkeletonBlock key={blockSize} blockSize={blockSize} shape="box" />
      ))}
    </SkeletonRegion>
  );
}

function Failure({ error, onRetry }: { error: FailureCode; onRetry?: () => void }) {
  if (error === 'RESULT_NOT_RELEASED') {
    return (
      <p className={styles.notice} role="status" data-code={error}>
        <ClockIcon />
        <span>
          <Trans>Waiting for the result to be released. Results can be viewed from one week after the exam.</Trans>
        </span>
      </p>
    );
  }
  if (error === 'PAYMENT_REQUIRED') {
    return (
      <p className={styles.notice} role="status" data-code={error}>
        <InfoIcon />
        <span>
          <Trans>The result sheet has not been purchased yet. Once it is paid for, the score report opens here.</Trans>
        </span>
      </p>
    );
  }
  return (
    <FailureAlert code={error}>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          <Trans>Try again</Trans>
        </button>
      )}
    </FailureAlert>
  );
}

export function ScoreReportScreen({ api }: { api: ScoreReportApi }) {
  const { status, report, error, variant } = api;
  return (
    <Page align="start" width="wide" className={styles.page}>
      <div className={styles.report} data-variant={variant} data-status={status}>
        <PageHeading focusOnMount={variant === 'screen'}>
          <Trans>Score report</Trans>
        </PageHeading>
        {status === 'loading' && <Loading />}
        {status === 'error' && <Failure error={error ?? 'GENERIC_ERROR'} onRetry={api.onRetry} />}
        {status === 'ready' && report && <Report api={api} report={report} />}
        {api.variant === 'screen' && (
          <div className={`button-row ${styles.actions}`}>
            <button type="button" className="button" onClick={api.onBack}>
              <Trans>Back to menu</Trans>
            </button>
          </div>
        )}
      </div>
    </Page>
  );
}

function Report({ api, report }: { api: ScoreReportApi; report: ScoreReport }) {
  const { t, i18n } = useLingui();
  const { language } = useLanguage();
  const n = (value: number) => formatNumber(value, language);
  const { examinee, exam, result, rank } = report;
  const subject = subjectName(i18n, exam.subject);
  const level = n(exam.level.order);
  const rate = formatRate(result.correct_rate, language);
  const score = n(result.score);
  const maxScore = n(result.max_score);
  const passScore = n(result.pass_score);
  const correct = n(result.correct_count);
  const questions = n(result.question_count);
  const ratings = {
    A: t`Excellent`,
    B: t`Very good`,
    C: t`Good: passed`,
    D: t`Keep practising`,
  } as const;
  const notYet = t`Not yet available`;
  const ratingLetter = result.rating;
  const ratingWords = ratings[result.rating];

  return (
    <>
      {api.variant === 'screen' && <ReportActions api={api} certificate={report.certificate_available} />}

      <Section item="examinee" title={<Trans>Examinee information</Trans>}>
        <dl className={styles.details}>
          <Row item="name" label={<Trans>Name</Trans>}>
            {examinee.name}
          </Row>
          <Row item="age" label={<Trans>Age</Trans>}>
            {examinee.age === null ? notYet : n(examinee.age)}
          </Row>
          <Row item="region" label={<Trans>Country or region</Trans>}>
            {examinee.region === null ? notYet : formatRegion(examinee.region, language)}
          </Row>
          <Row item="grade" label={<Trans>Grade</Trans>}>
            {examinee.grade_id === null ? notYet : gradeName(i18n, examinee.grade_id, language)}
          </Row>
          <Row item="organization" label={<Trans>Organisation</Trans>}>
            <LinkedText text={examinee.organization_name} />
          </Row>
        </dl>
      </Section>

      <Section item="overall" title={<Trans>Overall result</Trans>}>
        <dl className={styles.details}>
          <Row item="subject" label={<Trans>Subject and level</Trans>}>
            <Trans>
              {subject}, Level {level}
            </Trans>
          </Row>
          <Row item="exam-date" label={<Trans>Exam date</Trans>}>
            <time dateTime={exam.exam_date}>{formatDate(exam.exam_date, language)}</time>
          </Row>
          <Row item="score" label={<Trans>Score</Trans>}>
            <Trans>
              {score} out of {maxScore} (pass mark {passScore})
            </Trans>
          </Row>
          <Row item="correct-rate" label={<Trans>Correct answer rate</Trans>}>
            <span data-value="correct-rate">{rate}</span>{' '}
            <span className={styles.muted}>
              <Trans>
                ({correct} of {questions} questions)
              </Trans>
            </span>
          </Row>
          <Row item="passed" label={<Trans>Result</Trans>}>
            <span className={styles.verdict} data-passed={result.passed}>
              {result.passed ? <CheckIcon /> : <WarningIcon />}
              {result.passed ? <Trans>Passed</Trans> : <Trans>Did not pass</Trans>}
            </span>
          </Row>
          {/* Hidden: the school shows no rankings (display flag 3); the server sent none. */}
          {rank.status !== 'hidden' && (
            <Row item="rank" label={<Trans>Rank at this level</Trans>}>
              {rank.status === 'complete' ? (
                <RankText position={n(rank.position)} total={n(rank.total)} />
              ) : (
                <span className={styles.muted}>
                  <Trans>Rank aggregation is in progress. Please check again later.</Trans>
                </span>
              )}
            </Row>
          )}
          <Row item="certificate" label={<Trans>Certificate</Trans>}>
            {report.certificate_available ? <Trans>Available</Trans> : <Trans>Not available</Trans>}
          </Row>
        </dl>
      </Section>

      <Section item="chart" title={<Trans>Chart and rating</Trans>}>
        <p className={styles.rating} data-rating={result.rating}>
          <span className={styles.ratingLetter} aria-hidden="true">
            {result.rating}
          </span>
          <span>
            <Trans>
              Rating {ratingLetter}: {ratingWords}
            </Trans>
          </span>
        </p>
        {/* Hidden with the rank: the school shows no rankings (display flag 3); the server sent none. */}
        {report.distribution === null ? null : report.distribution.length > 0 ? (
          <>
            <DistributionChart distribution={report.distribution} score={result.score} language={language} />
            <table className="visually-hidden">
              <caption>
                <Trans>Score distribution at this level</Trans>
              </caption>
              <TableHead columns={[<Trans>Score</Trans>, <Trans>Examinees</Trans>]} />
              <tbody>
                {report.distribution.map((d) => (
                  <tr key={d.score}>
                    <td>{n(d.score)}</td>
                    <td>{n(d.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : (
          <p className={styles.muted}>
            <Trans>The score distribution is not available yet.</Trans>
          </p>
        )}
      </Section>

      <Section item="units" title={<Trans>Correct answers per unit</Trans>}>
        {report.units.length > 0 && <UnitsChart report={report} language={language} />}
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">
              <Trans>Correct answers per unit, against all examinees and against your organisation</Trans>
            </caption>
            <TableHead
              columns={[
                <Trans>Unit</Trans>,
                <Trans>Correct answers</Trans>,
                <Trans>You</Trans>,
                <Trans>All examinees</Trans>,
                <Trans>Your organisation</Trans>,
              ]}
            />
            <tbody>
              {report.units.map((u) => {
                const unitCorrect = n(u.correct_count);
                const unitQuestions = n(u.question_count);
                return (
                  <tr key={u.unit}>
                    <th scope="row">{unitName(i18n, u.unit)}</th>
                    <td>
                      <Trans>
                        {unitCorrect} of {unitQuestions}
                      </Trans>
                    </td>
                    <td>{formatRate(u.correct_rate, language)}</td>
                    <td>{u.average_all === null ? notYet : formatRate(u.average_all, language)}</td>
                    <td>{u.average_organization === null ? notYet : formatRate(u.average_organization, language)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Section>

      <Section item="wrong-answer" title={<Trans>A wrong answer, explained</Trans>}>
        {report.wrong_answer_example ? (
          <WrongAnswer example={report.wrong_answer_example} language={language} />
        ) : (
          <p className={styles.muted}>
            <Trans>There is no wrong answer to show.</Trans>
          </p>
        )}
      </Section>
    </>
  );
}

/** Print, save as PDF and the certificate (the app's screen variant); a failed download says so. */
function ReportActions({ api, certificate }: { api: ScoreReportScreenApi; certificate: boolean }) {
  const { download } = api;
  return (
    <div className={`button-row ${styles.actions}`}>
      <button type="button" className="button" onClick={api.onPrint}>
        <Trans>Print</Trans>
      </button>
      <button
        type="button"
        className="button"
        data-variant="primary"
        onClick={api.onDownloadPdf}
        disabled={download.report === 'working'}
        aria-busy={download.report === 'working'}
      >
        {download.report === 'working' ? <Trans>Preparing the PDF…</Trans> : <Trans>Save as PDF</Trans>}
      </button>
      {certificate && (
        <button
          type="button"
          className="button"
          onClick={api.onDownloadCertificate}
          disabled={download.certificate === 'working'}
          aria-busy={download.certificate === 'working'}
        >
          {download.certificate === 'working' ? <Trans>Preparing the certificate…</Trans> : <Trans>Download the certificate</Trans>}
        </button>
      )}
      {(download.report === 'failed' || download.certificate === 'failed') && <FailureAlert code="DOCUMENT_UNAVAILABLE" />}
    </div>
  );
}

function RankText({ position, total }: { position: string; total: string }) {
  return (
    <span data-value="rank">
      <Trans>
        {position} out of {total} at this level
      </Trans>
    </span>
  );
}

function WrongAnswer({ example, language }: { example: NonNullable<ScoreReport['wrong_answer_example']>; language: LanguageKey }) {
  const { i18n } = useLingui();
  const number = formatNumber(example.question_number, language);
  // The content (question, answers, a unit the catalog does not name) is in the subject's
  // language, which may run the other way from the interface's: each piece is isolated, so a
  // question's "?" stays at its end inside a right-to-left report.
  const unit = <bdi>{unitName(i18n, example.unit)}</bdi>;
  return (
    <div className={styles.example}>
      <p className={styles.muted}>
        <Trans>
          Question {number} ({unit})
        </Trans>
      </p>
      <p className={styles.prompt} dir="auto">
        {example.math ? <MathText text={example.prompt} /> : example.prompt}
      </p>
      <dl className={styles.details}>
        <Row item="given" label={<Trans>Your answer</Trans>}>
          <bdi className={styles.given}>{example.math ? <MathText text={example.given} /> : example.given}</bdi>
        </Row>
        <Row item="correct-answer" label={<Trans>Correct answer</Trans>}>
          <bdi className={styles.correct}>{example.math ? <MathText text={example.correct} /> : example.correct}</bdi>
        </Row>
      </dl>
    </div>
  );
}
