/**
 * The exams section: every stored version of every exam (code, version, title, questions, pass
 * mark, time limit) and whether a pupil has started it (then it is never changed in place: a
 * changed import makes the next version).
 */
import { Trans } from '@lingui/react/macro';
import type { AdministrationApi } from '../../../machines/administration/administration.connect.ts';
import { formatNumber } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { ListState, RefreshButton } from './list-state.tsx';
import { AdminTable } from './admin-table.tsx';
import { AdminSection } from './admin-section.tsx';

export function Exams({ api }: { api: AdministrationApi['exams'] }) {
  const { language } = useLanguage();
  return (
    <AdminSection id="admin-exams" title={<Trans>Exams</Trans>} actions={<RefreshButton list={api} />}>
      <ListState list={api} empty={api.items.length === 0} emptyText={<Trans>No exams yet. Import one under Imports.</Trans>}>
        <AdminTable
          labelledBy="admin-exams"
          columns={[
            <Trans>Code</Trans>,
            <Trans>Version</Trans>,
            <Trans>Title</Trans>,
            <Trans>Questions</Trans>,
            <Trans>Pass mark</Trans>,
            <Trans>Time limit</Trans>,
            <Trans>In use</Trans>,
          ]}
        >
          {api.items.map((exam) => {
            const minutes = formatNumber(Math.round(exam.time_limit_seconds / 60), language);
            const percent = formatNumber(exam.pass_percent, language);
            return (
              <tr key={`${exam.code}/${exam.version}`}>
                <th scope="row"><span className="ltr-isolate">{exam.code}</span></th>
                <td>{formatNumber(exam.version, language)}</td>
                <td dir="auto">{exam.title}</td>
                <td>{formatNumber(exam.questions, language)}</td>
                <td><Trans>{percent} %</Trans></td>
                <td><Trans>{minutes} min</Trans></td>
                <td>{exam.in_use ? <Trans>Yes, pupils have started it</Trans> : <Trans>No</Trans>}</td>
              </tr>
            );
          })}
        </AdminTable>
      </ListState>
    </AdminSection>
  );
}
