/**
 * How the test works (seed section 2, `exam-tutorial`): the number of questions, the time limit,
 * the timer in the header, moving between questions, changing answers until the end, and that
 * answers are saved as the pupil goes. Top-aligned, as the seed says for this screen.
 *
 * With the tutorial machine's view (`tutorial`, machines/tutorial/tutorial.connect.ts), the
 * practice follows the points: one unscored practice question of each type the exam uses, with
 * the exam's own components (practice.tsx). Continue is there in every state: the practice is
 * optional and never keeps the pupil from the test.
 */
import { Plural, Trans } from '@lingui/react/macro';
import { ArrowIcon, CheckIcon, ClockIcon, InfoIcon } from '../../components/icon/icons.tsx';
import { Page, PageHeading } from '../../components/page/page.tsx';
import { formatClock } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import type { TutorialPointsApi } from '../../../machines/exam/exam.connect.ts';
import type { TutorialApi } from '../../../machines/tutorial/tutorial.connect.ts';
import { Practice } from './practice.tsx';
import styles from './exam-tutorial.module.css';

/**
 * The tutorial machine's connect (the points from its rules, and the practice); while no tutorial
 * runs, the exam connect's points alone (its host shows them once the question count is known).
 */
export function ExamTutorialScreen({ api }: { api: TutorialApi | TutorialPointsApi }) {
  const { questionCount, timeLimitMinutes, onContinue, tutorial } =
    'rules' in api
      ? { questionCount: api.rules.questionCount, timeLimitMinutes: api.rules.timeLimitMinutes, onContinue: api.finish, tutorial: api }
      : { questionCount: api.questionCount ?? 0, timeLimitMinutes: api.timeLimitMinutes, onContinue: api.complete, tutorial: null };
  const { language } = useLanguage();
  // The timer's end as the header's timer shows it, in the language's digits.
  const zeroTime = formatClock(0, language);
  return (
    <Page align="start" width="wide">
      <PageHeading>
        <Trans>How the test works</Trans>
      </PageHeading>
      <ul className={styles.steps}>
        <li className={styles.step}>
          <InfoIcon />
          <p>
            <Plural
              value={questionCount}
              one="The test has # question."
              other="The test has # questions."
            />{' '}
            <Plural value={timeLimitMinutes} one="You have # minute." other="You have # minutes." />
          </p>
        </li>
        <li className={styles.step}>
          <ClockIcon />
          <p>
            <Trans>The timer at the top of the screen shows how much time is left. When it reaches {zeroTime}, the test ends by itself.</Trans>
          </p>
        </li>
        <li className={styles.step}>
          <ArrowIcon direction="forward" />
          <p>
            <Trans>Use the Previous and Next buttons to move between questions. You can skip a question and come back to it.</Trans>
          </p>
        </li>
        <li className={styles.step}>
          <CheckIcon />
          <p>
            <Trans>Your answers are saved as you go. You can change them until you finish the test.</Trans>
          </p>
        </li>
      </ul>
      {tutorial && <Practice tutorial={tutorial} />}
      <button type="button" className="button" data-variant="primary" onClick={onContinue}>
        <Trans>Continue</Trans>
      </button>
    </Page>
  );
}
