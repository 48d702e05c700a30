/**
 * The certificate (issue "Results, payments, score report and certificate"): a printable A4
 * landscape document for a passed, paid result: the pupil's name, the subject and level, the
 * exam date, "has passed", the organisation and the certificate number, in the current language.
 * Presentational: it renders the document connect's certificate part (machines/document/
 * document.connect.ts) as its one `api` prop; the PDF renderer prints it from the embed route
 * (`document=certificate`).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { CertificateApi } from '../../../machines/document/document.connect.ts';
import { formatDate, formatNumber } from '../../i18n/format.ts';
import { useLanguage } from '../../i18n/language-context.tsx';
import { subjectName } from '../../i18n/subjects.ts';
import { PRODUCT_NAME } from '../../app/product.ts';
import { Fact } from '../../components/details/details.tsx';
import { certificateNumber } from './certificate-number.ts';
import styles from './certificate.module.css';

export function CertificateDocument({ api }: { api: CertificateApi }) {
  const { report } = api;
  const { i18n } = useLingui();
  const { language } = useLanguage();
  const subject = subjectName(i18n, report.exam.subject);
  const level = formatNumber(report.exam.level.order, language);
  const date = formatDate(report.exam.exam_date, language);
  const number = certificateNumber(report.schedule_history_id, report.exam.exam_date);
  return (
    <main className={styles.certificate} data-document="certificate">
      <div className={styles.frame}>
        <p className={styles.brand}>{PRODUCT_NAME}</p>
        <h1 className={styles.title}>
          <Trans>Certificate of achievement</Trans>
        </h1>
        <p className={styles.lead}>
          <Trans>This is to certify that</Trans>
        </p>
        <p className={styles.name} data-item="name">
          {report.examinee.name}
        </p>
        <p className={styles.statement} data-item="passed">
          <Trans>
            has passed {subject}, Level {level}
          </Trans>
        </p>
        <dl className={styles.facts}>
          <Fact term={<Trans>Exam date</Trans>} data-item="exam-date">
            <time dateTime={report.exam.exam_date}>{date}</time>
          </Fact>
          <Fact term={<Trans>Organisation</Trans>} data-item="organization">{report.examinee.organization_name}</Fact>
          <Fact term={<Trans>Certificate number</Trans>} data-item="certificate-number" dir="ltr">
            {number}
          </Fact>
        </dl>
      </div>
    </main>
  );
}
