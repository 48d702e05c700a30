/**
 * Schools and pupils: every school with its classrooms and test periods, and a pupil search (a
 * school, one of its classrooms or every one, and a name, pupil id or login code) whose rows offer
 * "Re-issue login code". The
 * re-issue asks first (the old code stops working at once), then shows the new code; focus goes
 * to the confirm step when it opens and to the new code when it arrives.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AdministrationApi } from '../../../machines/administration/administration.connect.ts';
import { CheckIcon } from '../../components/icon/icons.tsx';
import { formatDate } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { StaffFailure } from '../proctor/staff-failure.tsx';
import { ClassroomSelect } from './classroom-select.tsx';
import { ListState, RefreshButton } from './list-state.tsx';
import { AdminSection } from './admin-section.tsx';
import styles from './administration.module.css';

type SchoolsApi = AdministrationApi['schools'];

function ReissueStep({ reissue }: { reissue: NonNullable<SchoolsApi['reissue']> }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [reissue.status]);
  const name = reissue.name;
  return (
    <div ref={ref} tabIndex={-1} className={styles.dialog} role="group" aria-labelledby="admin-reissue-title">
      <h2 id="admin-reissue-title">
        <Trans>Re-issue the login code of <span dir="auto">{name}</span></Trans>
      </h2>
      {reissue.status === 'done' ? (
        <>
          <div className="alert" data-tone="success" role="status">
            <CheckIcon />
            <p>
              <Trans>New login code:</Trans> <strong className={`${styles.code} ltr-isolate`}>{reissue.code}</strong>
            </p>
          </div>
          <p><Trans>The old code no longer works. Give the pupil this code or print a new login slip.</Trans></p>
          <button type="button" className="button" data-variant="primary" onClick={reissue.cancel}>
            <Trans>Done</Trans>
          </button>
        </>
      ) : reissue.status === 'failed' ? (
        <StaffFailure code={reissue.failure} message={staffFailureMessage(reissue.failure ?? 'GENERIC_ERROR')} onRetry={reissue.confirm} other={{ label: <Trans>Cancel</Trans>, onClick: reissue.cancel }} />
      ) : (
        <>
          <p><Trans>The pupil's current code stops working at once. Do this only when a slip is lost or seen by someone else.</Trans></p>
          <div className="button-row">
            <button type="button" className="button" data-variant="primary" onClick={reissue.confirm} aria-busy={reissue.status === 'sending' || undefined} aria-disabled={reissue.status === 'sending' || undefined}>
              {reissue.status === 'sending' ? <Trans>Re-issuing…</Trans> : <Trans>Re-issue the code</Trans>}
            </button>
            <button type="button" className="button" onClick={reissue.cancel} disabled={reissue.status === 'sending'}>
              <Trans>Cancel</Trans>
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function PupilSearch({ api }: { api: SchoolsApi }) {
  const { t } = useLingui();
  const pupils = api.pupils;
  const ids = { school: useId(), q: useId() };
  const [school, setSchool] = useState(pupils.query?.school ?? api.items[0]?.code ?? '');
  const [venue, setVenue] = useState(pupils.query?.venueId == null ? '' : String(pupils.query.venueId));
  const [q, setQ] = useState(pupils.query?.q ?? '');
  const rooms = api.items.find((s) => s.code === school)?.venues ?? [];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    pupils.search({ school, q, venueId: venue === '' ? null : Number(venue) });
  }

  return (
    <section aria-labelledby="admin-pupils" className={styles.stack}>
      <h2 id="admin-pupils"><Trans>Find a pupil</Trans></h2>
      <form className={styles.form} onSubmit={submit} role="search">
        <div className="field">
          <label htmlFor={ids.school} className="field-label"><Trans>School</Trans></label>
          <select id={ids.school} className="input" value={school} onChange={(e) => { setSchool(e.target.value); setVenue(''); }}>
            {api.items.map((s) => (
              <option key={s.code} value={s.code}>{`${s.name} (${s.code})`}</option>
            ))}
          </select>
        </div>
        <ClassroomSelect rooms={rooms} value={venue} onChange={setVenue} />
        <div className="field">
          <label htmlFor={ids.q} className="field-label"><Trans>Name, pupil ID or login code</Trans></label>
          <input id={ids.q} className="input" type="search" value={q} onChange={(e) => setQ(e.target.value)} maxLength={200} autoComplete="off" />
        </div>
        <button type="submit" className="button" aria-busy={pupils.status === 'searching' || undefined}>
          <Trans>Search</Trans>
        </button>
      </form>
      {pupils.status === 'searching' && <p role="status"><Trans>Searching…</Trans></p>}
      {pupils.status === 'failed' && <StaffFailure code={pupils.failure} message={staffFailureMessage(pupils.failure ?? 'GENERIC_ERROR')} onRetry={pupils.retry} />}
      {api.reissue && <ReissueStep reissue={api.reissue} />}
      {pupils.status === 'ready' && pupils.items.length === 0 && (
        <p role="status"><Trans>No pupil matches.</Trans></p>
      )}
      {pupils.status === 'ready' && pupils.items.length > 0 && (
        <div className={styles.tableFrame} role="region" aria-label={t`Pupils found`} tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col"><Trans>Pupil</Trans></th>
                <th scope="col"><Trans>Pupil ID</Trans></th>
                <th scope="col"><Trans>Class</Trans></th>
                <th scope="col"><Trans>Classroom</Trans></th>
                <th scope="col"><Trans>Login code</Trans></th>
                <th scope="col"><span className="visually-hidden"><Trans>Actions</Trans></span></th>
              </tr>
            </thead>
            <tbody>
              {pupils.items.map((pupil) => (
                <tr key={pupil.id}>
                  <th scope="row" dir="auto">{pupil.name}</th>
                  <td><span className="ltr-isolate">{pupil.external_id ?? '—'}</span></td>
                  <td dir="auto">{pupil.class_name || '—'}</td>
                  <td dir="auto">{pupil.venue?.name ?? '—'}</td>
                  <td><span className={`${styles.code} ltr-isolate`}>{pupil.login_code}</span></td>
                  <td>
                    <button type="button" className="button" onClick={() => pupils.reissue(pupil.id)} disabled={!pupils.canReissue}>
                      <Trans>Re-issue login code</Trans>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function SchoolsAndPupils({ api }: { api: SchoolsApi }) {
  const { language } = useLanguage();
  return (
    <AdminSection id="admin-schools" title={<Trans>Schools and pupils</Trans>} actions={<RefreshButton list={api} />}>
      <ListState list={api} empty={api.items.length === 0} emptyText={<Trans>No schools yet. Import them under Imports, starting with the schools file.</Trans>}>
        <PupilSearch api={api} />
        <h2><Trans>Schools</Trans></h2>
        {api.items.map((school) => (
          <article key={school.code} className={styles.school} aria-labelledby={`school-${school.code}`}>
            <h3 id={`school-${school.code}`} dir="auto">
              {school.name} <span className="ltr-isolate">({school.code})</span>
              {school.disabled && <> · <Trans>Disabled</Trans></>}
            </h3>
            <div className={styles.facts}>
              <div>
                <h4><Trans>Classrooms</Trans></h4>
                {school.venues.length === 0 ? <p>—</p> : (
                  <ul>{school.venues.map((v) => <li key={v.id} dir="auto">{v.name}{v.disabled && <> · <Trans>Disabled</Trans></>}</li>)}</ul>
                )}
              </div>
              <div>
                <h4><Trans>Test periods</Trans></h4>
                {school.schedules.length === 0 ? <p>—</p> : (
                  <ul>
                    {school.schedules.map((s) => {
                      const starts = formatDate(s.starts_at, language);
                      const ends = formatDate(s.ends_at, language);
                      return (
                        <li key={s.code}>
                          <span dir="auto">{s.name || s.code}</span> <span className="ltr-isolate">({s.code})</span>{' '}
                          <Trans>{starts} to {ends}</Trans>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </div>
            </div>
          </article>
        ))}
      </ListState>
    </AdminSection>
  );
}
