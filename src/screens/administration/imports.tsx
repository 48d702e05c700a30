/**
 * Imports: choose what the file holds (schools, classrooms, test periods, pupils or an exam),
 * pick the file, "Check file" (a dry run: nothing changes), read the summary and the rows with
 * every refusal first (its row, column and reason), then "Apply", offered only when nothing is
 * refused; the result replaces the plan. The file's bytes go to the server as they are. An exam
 * file may be sent with a subject, level and level name, for a QTI package whose manifest does not
 * say them (each left empty: as the file says); the server judges them.
 * Focus goes to the summary when a check or an apply ends.
 */
import { useLingui } from '@lingui/react';
import { Plural, Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, type RefObject } from 'react';
import type { AdministrationApi } from '../../../machines/administration/administration.connect.ts';
import { importOutcomes } from '../../../machines/administration/administration.types.ts';
import { CheckIcon, ErrorIcon, InfoIcon } from '../../components/icon/icons.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { importKindLabels, importReasonMessages, outcomeLabels } from '../../i18n/administration-messages.ts';
import { subjectName } from '../../i18n/subjects.ts';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { StaffFailure } from '../proctor/staff-failure.tsx';
import { AdminTable } from './admin-table.tsx';
import { AdminSection } from './admin-section.tsx';
import styles from './administration.module.css';

type ImportsApi = AdministrationApi['imports'];

function Plan({ api }: { api: ImportsApi }) {
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const plan = api.plan!;
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), [plan]);
  const refused = plan.refused;
  return (
    <section aria-labelledby="admin-import-plan" className={styles.stack}>
      <h2 id="admin-import-plan" ref={ref} tabIndex={-1}>
        {plan.applied ? <Trans>Imported</Trans> : <Trans>What this file would change</Trans>}
      </h2>
      <ul className={styles.summary}>
        {importOutcomes.map((outcome) => (
          <li key={outcome} data-outcome={outcome}>
            <strong>{formatNumber(plan.summary[outcome], language)}</strong>
            {i18n._(outcomeLabels[outcome])}
          </li>
        ))}
      </ul>
      {plan.applied ? (
        <div className="alert" data-tone="success" role="status">
          <CheckIcon />
          <p><Trans>The file was imported. Importing it again changes nothing.</Trans></p>
        </div>
      ) : refused > 0 ? (
        <div className="alert" role="alert">
          <ErrorIcon />
          <p>
            <Plural value={refused} one="# row is refused, so nothing can be imported. Correct the file and check it again." other="# rows are refused, so nothing can be imported. Correct the file and check it again." />
          </p>
        </div>
      ) : (
        <div className="alert" data-tone="info" role="status">
          <InfoIcon />
          <p><Trans>Nothing is refused. Nothing has changed yet: apply the file to import it.</Trans></p>
        </div>
      )}
      {plan.rows.length > 0 && (
        <AdminTable
          labelledBy="admin-import-plan"
          columns={[
            <Trans>Row</Trans>,
            <Trans>Record</Trans>,
            <Trans>Outcome</Trans>,
            <Trans>Column</Trans>,
            <Trans>Reason</Trans>,
          ]}
        >
          {plan.rows.map((row, index) => {
            const problems = row.problems.length > 0 ? row.problems : [null];
            return problems.map((problem, p) => (
              <tr key={`${index}-${p}`} data-outcome={row.outcome}>
                <th scope="row">{row.row === null ? <Trans>Whole file</Trans> : formatNumber(row.row, language)}</th>
                <td><span className="ltr-isolate" dir="auto">{row.key || '—'}</span></td>
                <td>
                  {row.outcome === 'refuse' && <ErrorIcon />}
                  {i18n._(outcomeLabels[row.outcome])}
                </td>
                <td><span className="ltr-isolate">{problem?.column ?? '—'}</span></td>
                <td>
                  {problem ? i18n._(importReasonMessages[problem.reason]) : '—'}
                  {problem?.value !== undefined && problem.value !== '' && (
                    <>
                      {' '}
                      <span className="ltr-isolate" dir="auto">«{problem.value}»</span>
                    </>
                  )}
                </td>
              </tr>
            ));
          })}
        </AdminTable>
      )}
    </section>
  );
}

/** An exam file's subject, level and level name, read when the file is checked. */
function ExamDetailsFields({ api, ref }: { api: ImportsApi; ref: RefObject<HTMLFieldSetElement | null> }) {
  const { i18n } = useLingui();
  const ids = { subject: useId(), level: useId(), levelName: useId(), hint: useId() };
  return (
    <fieldset ref={ref} className={styles.form} aria-describedby={ids.hint} disabled={!api.canChoose}>
      <legend><Trans>Subject and level</Trans></legend>
      <p id={ids.hint} className="field-hint">
        <Trans>For a QTI package whose manifest does not say them. Leave them empty to use what the file says.</Trans>
      </p>
      <div className="field">
        <label htmlFor={ids.subject} className="field-label"><Trans>Subject</Trans></label>
        <select id={ids.subject} name="subject" className="input" defaultValue={api.exam?.subject ?? ''}>
          <option value=""><Trans>As the file says</Trans></option>
          {api.examSubjects.map((id) => (
            <option key={id} value={id}>{subjectName(i18n, { id: Number(id), name: id })}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.level} className="field-label"><Trans>Level</Trans></label>
        <input id={ids.level} name="level" className="input" type="number" inputMode="numeric" min={1} max={99} step={1} defaultValue={api.exam?.level ?? ''} />
      </div>
      <div className="field">
        <label htmlFor={ids.levelName} className="field-label"><Trans>Level name</Trans></label>
        <input id={ids.levelName} name="level_name" className="input" type="text" maxLength={100} defaultValue={api.exam?.levelName ?? ''} />
      </div>
    </fieldset>
  );
}

export function Imports({ api }: { api: ImportsApi }) {
  const { i18n } = useLingui();
  const ids = { kind: useId(), file: useId(), fileHint: useId() };
  const busy = api.status === 'checking' || api.status === 'applying';
  const examFields = useRef<HTMLFieldSetElement>(null);
  const typed = (name: string) => {
    const field = examFields.current?.elements.namedItem(name);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? field.value.trim() || null : null;
  };
  const check = () => (api.kind === 'exam' ? api.check({ subject: typed('subject'), level: typed('level'), levelName: typed('level_name') }) : api.check());

  return (
    <AdminSection id="admin-imports" title={<Trans>Imports</Trans>}>
      <p><Trans>Import in this order: schools, classrooms, test periods, pupils. Checking a file changes nothing; applying imports all of it or nothing.</Trans></p>
      <div className={styles.form}>
        <div className="field">
          <label htmlFor={ids.kind} className="field-label"><Trans>What the file holds</Trans></label>
          <select id={ids.kind} className="input" value={api.kind} disabled={!api.canChoose} onChange={(e) => {
              const kind = api.kinds.find((k) => k === e.target.value);
              if (kind) api.chooseKind(kind);
            }}>
            {api.kinds.map((kind) => (
              <option key={kind} value={kind}>{i18n._(importKindLabels[kind])}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.file} className="field-label"><Trans>File</Trans></label>
          <input
            key={api.kind}
            id={ids.file}
            type="file"
            className="input"
            accept={api.accept}
            disabled={!api.canChoose}
            aria-describedby={ids.fileHint}
            onChange={(e) => {
              const file = e.target.files?.[0];
              api.chooseFile(file ? { name: file.name, size: file.size, type: file.type, blob: file } : null);
            }}
          />
          <p id={ids.fileHint} className="field-hint">
            {api.kind === 'exam' ? <Trans>A .json file or a .zip content package.</Trans> : <Trans>A .csv file in UTF-8, with , or ; between the columns.</Trans>}
          </p>
        </div>
      </div>
      {api.kind === 'exam' && <ExamDetailsFields api={api} ref={examFields} />}
      <div className="button-row">
        <button type="button" className="button" data-variant={api.canApply ? undefined : 'primary'} onClick={check} disabled={!api.canCheck} aria-busy={api.status === 'checking' || undefined}>
          {api.status === 'checking' ? <Trans>Checking…</Trans> : <Trans>Check file</Trans>}
        </button>
        <button type="button" className="button" data-variant={api.canApply ? 'primary' : undefined} onClick={api.apply} disabled={!api.canApply} aria-busy={api.status === 'applying' || undefined}>
          {api.status === 'applying' ? <Trans>Applying…</Trans> : <Trans>Apply</Trans>}
        </button>
      </div>
      {busy && <p role="status">{api.status === 'checking' ? <Trans>Checking…</Trans> : <Trans>Applying…</Trans>}</p>}
      {api.failure && <StaffFailure code={api.failure} message={staffFailureMessage(api.failure)} onRetry={check} />}
      {api.plan && !busy && <Plan api={api} />}
    </AdminSection>
  );
}
