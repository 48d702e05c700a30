/**
 * Login slips and results: choose a test period (by school) and optionally one classroom, then
 * download the login slips (PDF) or the results (CSV). The machine fetches the file with the
 * staff token; this view makes an object URL of the bytes for a "Save" link under the file's name
 * (focused when it appears) and revokes it when the file goes away.
 */
import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import type { AdministrationApi } from '../../../machines/administration/administration.connect.ts';
import type { DownloadedFile } from '../../../machines/administration/administration.types.ts';
import { staffFailureMessage } from '../../i18n/proctor-messages.ts';
import { StaffFailure } from '../proctor/staff-failure.tsx';
import { ClassroomSelect } from './classroom-select.tsx';
import { ListState } from './list-state.tsx';
import { AdminSection } from './admin-section.tsx';
import styles from './administration.module.css';

type DocumentsApi = AdministrationApi['documents'];

/** An object URL for the file while it is shown, revoked when the file goes (StrictMode-safe: made in the effect). */
function useObjectUrl(blob: Blob): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(blob);
    // The URL is a browser resource made and revoked with this effect, so it is set from here.
    setUrl(made); // eslint-disable-line react-hooks/set-state-in-effect
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

function SaveLink({ file }: { file: DownloadedFile }) {
  const url = useObjectUrl(file.blob);
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => ref.current?.focus(), [url]);
  if (!url) return null;
  const name = file.fileName;
  return (
    <div className="alert" data-tone="success" role="status">
      <p>
        <Trans>The file is ready.</Trans>{' '}
        <a ref={ref} href={url} download={file.fileName} className="button" data-variant="primary">
          <Trans>Save {name}</Trans>
        </a>
      </p>
    </div>
  );
}

export function Documents({ api }: { api: DocumentsApi }) {
  const ids = { schedule: useId() };
  const periods = api.schools.flatMap((school) => school.schedules.map((schedule) => ({ school, schedule })));
  const [scheduleCode, setScheduleCode] = useState('');
  const [venue, setVenue] = useState('');
  const chosen = periods.find((p) => p.schedule.code === scheduleCode) ?? periods[0];
  const venueId = venue === '' ? null : Number(venue);
  const download = api.download;
  const ask = (kind: 'slips' | 'results') => chosen && download.ask({ kind, scheduleCode: chosen.schedule.code, venueId });

  return (
    <AdminSection id="admin-documents" title={<Trans>Login slips and results</Trans>}>
      <ListState list={api} empty={periods.length === 0} emptyText={<Trans>No test periods yet. Import them under Imports.</Trans>}>
        <div className={styles.form}>
          <div className="field">
            <label htmlFor={ids.schedule} className="field-label"><Trans>Test period</Trans></label>
            <select id={ids.schedule} className="input" value={chosen?.schedule.code ?? ''} onChange={(e) => { setScheduleCode(e.target.value); setVenue(''); }}>
              {periods.map(({ school, schedule }) => (
                <option key={schedule.code} value={schedule.code}>{`${school.name}: ${schedule.name || schedule.code} (${schedule.code})`}</option>
              ))}
            </select>
          </div>
          <ClassroomSelect rooms={chosen?.school.venues ?? []} value={venue} onChange={setVenue} />
        </div>
        <div className="button-row">
          <button type="button" className="button" onClick={() => ask('slips')} disabled={!download.canAsk} aria-busy={(download.status === 'downloading' && download.request?.kind === 'slips') || undefined}>
            <Trans>Download login slips (PDF)</Trans>
          </button>
          <button type="button" className="button" onClick={() => ask('results')} disabled={!download.canAsk} aria-busy={(download.status === 'downloading' && download.request?.kind === 'results') || undefined}>
            <Trans>Download results (CSV)</Trans>
          </button>
        </div>
        {download.status === 'downloading' && <p role="status"><Trans>Preparing the file…</Trans></p>}
        {download.status === 'failed' && <StaffFailure code={download.failure} message={staffFailureMessage(download.failure ?? 'GENERIC_ERROR')} onRetry={download.retry} />}
        {download.file && <SaveLink file={download.file} />}
      </ListState>
    </AdminSection>
  );
}
