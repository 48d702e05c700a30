/**
 * The organisation's schedules on the proctor page: one large button per schedule (its name, or
 * its code when it has none, when it runs, its room and how many pupils are booked), "Refresh",
 * the empty state, a skeleton while loading, and a failure with "Try again".
 */
import { Plural, Trans } from '@lingui/react/macro';
import type { ProctorApi } from '../../../machines/proctor/proctor.connect.ts';
import { PageHeading } from '../../components/page/page.tsx';
import { formatDate, formatTime } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { ListState, RefreshButton } from '../administration/list-state.tsx';
import styles from './proctor.module.css';

export function ScheduleList({ schedules }: { schedules: ProctorApi['schedules'] }) {
  const { language } = useLanguage();
  const when = (iso: string) => `${formatDate(iso, language)} ${formatTime(iso, language)}`;

  return (
    <section aria-labelledby="proctor-schedules">
      <div className={styles.titleRow}>
        <PageHeading id="proctor-schedules">
          <Trans>Choose a schedule</Trans>
        </PageHeading>
        <RefreshButton list={schedules} />
      </div>
      <ListState
        list={schedules}
        empty={schedules.items.length === 0}
        emptyText={<Trans>Your organisation has no schedules yet. Schedules appear here once pupils are booked for an exam.</Trans>}
        skeleton={{ boxes: 2, blockSize: '5rem' }}
      >
        <ul className={styles.scheduleList}>
          {schedules.items.map((schedule) => {
            const starts = when(schedule.starts_at);
            const ends = when(schedule.ends_at);
            const pupils = schedule.pupil_count;
            return (
              <li key={schedule.code}>
                <button type="button" className={styles.scheduleButton} onClick={() => schedules.choose(schedule.code)}>
                  <span className={styles.scheduleName} dir="auto">
                    {schedule.name || schedule.code}
                  </span>
                  <span className={styles.scheduleFacts}>
                    <span className="ltr-isolate">{schedule.code}</span>
                    <span>
                      <Trans>
                        {starts} to {ends}
                      </Trans>
                    </span>
                    {schedule.venue && <span dir="auto">{schedule.venue.name}</span>}
                    <span>
                      <Plural value={pupils} one="# pupil" other="# pupils" />
                    </span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </ListState>
    </section>
  );
}
