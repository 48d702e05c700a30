/**
 * The score report's charts (visx): the level's score distribution with the pupil's score marked,
 * and the per-unit correct rates of the pupil, all examinees and the organisation (units named in
 * the pupil's language, src/i18n/units.ts). This screen is
 * the only importer of visx, so it loads with the score report and nowhere else (ARCHITECTURE.md).
 *
 * Each chart is an image with a summary for screen readers; the numbers themselves are in tables
 * beside them (the distribution's table is visually hidden, the units' table is shown). Series
 * differ by pattern and label as well as colour (never information by colour alone). Charts stay
 * left to right in Arabic: their axes are number lines.
 */
import { useLingui } from '@lingui/react/macro';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, Line } from '@visx/shape';
import { Text } from '@visx/text';
import type { ScoreReport } from '../../../contract/results.ts';
import { formatNumber } from '../../i18n/format.ts';
import { unitName } from '../../i18n/units.ts';
import type { LanguageKey } from '../../../contract/languages.ts';
import styles from './score-report.module.css';

const width = 640;
const height = 260;
const margin = { top: 28, right: 16, bottom: 44, left: 48 };
const innerWidth = width - margin.left - margin.right;
const innerHeight = height - margin.top - margin.bottom;

export function DistributionChart({
  distribution,
  score,
  language,
}: {
  distribution: NonNullable<ScoreReport['distribution']>;
  score: number;
  language: LanguageKey;
}) {
  const { t } = useLingui();
  const data = [...distribution].sort((a, b) => a.score - b.score);
  const x = scaleBand<number>({ domain: data.map((d) => d.score), range: [0, innerWidth], padding: 0.2 });
  const maxCount = Math.max(1, ...data.map((d) => d.count));
  const y = scaleLinear<number>({ domain: [0, maxCount], range: [innerHeight, 0], nice: true });
  const n = (value: number) => formatNumber(value, language);
  const yourScore = n(score);
  const summary = t`Score distribution at this level: the number of examinees for each score. Your score, ${yourScore}, is marked.`;
  // The pupil's score may fall between two bars: the marker goes to the nearest one.
  const nearest = data.reduce<number | null>((best, d) => (best === null || Math.abs(d.score - score) < Math.abs(best - score) ? d.score : best), null);
  const markerX = nearest === null ? 0 : (x(nearest) ?? 0) + x.bandwidth() / 2;
  return (
    <svg className={styles.chart} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} direction="ltr" data-chart="distribution">
      <defs>
        <pattern id="gradus-mine" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="var(--chart-mine, #1f5f8b)" />
          <line x1="0" y1="0" x2="0" y2="6" stroke="#ffffff" strokeWidth="2" />
        </pattern>
      </defs>
      <Group left={margin.left} top={margin.top}>
        {data.map((d) => {
          const barHeight = innerHeight - y(d.count);
          const mine = d.score === nearest;
          return (
            <Bar
              key={d.score}
              x={x(d.score) ?? 0}
              y={innerHeight - barHeight}
              width={x.bandwidth()}
              height={barHeight}
              fill={mine ? 'url(#gradus-mine)' : 'var(--chart-all, #9fb3c2)'}
              stroke={mine ? 'var(--chart-mine, #1f5f8b)' : 'none'}
              strokeWidth={mine ? 2 : 0}
              data-mine={mine ? 'true' : undefined}
            />
          );
        })}
        <Line from={{ x: markerX, y: -8 }} to={{ x: markerX, y: innerHeight }} stroke="var(--chart-mark, #a3262b)" strokeWidth={2} strokeDasharray="4 3" />
        <Text x={markerX} y={-12} textAnchor="middle" fontSize={15} fontWeight={700} fill="var(--chart-mark, #a3262b)">
          {t`You: ${yourScore}`}
        </Text>
        <AxisLeft scale={y} numTicks={4} tickFormat={(v) => n(Number(v))} tickLabelProps={{ fontSize: 14, fill: '#4c5852' }} />
        <AxisBottom
          top={innerHeight}
          scale={x}
          tickFormat={(v) => n(Number(v))}
          tickLabelProps={{ fontSize: 14, fill: '#4c5852', textAnchor: 'middle' }}
          label={t`Score`}
          labelProps={{ fontSize: 15, fill: '#1c2420', textAnchor: 'middle' }}
        />
      </Group>
    </svg>
  );
}

type Series = 'mine' | 'all' | 'organization';

export function UnitsChart({ report, language }: { report: ScoreReport; language: LanguageKey }) {
  const { t, i18n } = useLingui();
  const labels: Record<Series, string> = { mine: t`You`, all: t`All examinees`, organization: t`Your organisation` };
  const series: Series[] = ['mine', 'all', 'organization'];
  const units = report.units;
  const chartHeight = Math.max(height, 70 + units.length * 70);
  const inner = chartHeight - margin.top - margin.bottom;
  const x0 = scaleBand<string>({ domain: units.map((u) => u.unit), range: [0, innerWidth], padding: 0.25 });
  const x1 = scaleBand<Series>({ domain: series, range: [0, x0.bandwidth()], padding: 0.08 });
  const y = scaleLinear<number>({ domain: [0, 100], range: [inner, 0] });
  const fills: Record<Series, string> = {
    mine: 'url(#gradus-unit-mine)',
    all: 'var(--chart-all, #9fb3c2)',
    organization: 'url(#gradus-unit-org)',
  };
  const valueOf = (u: ScoreReport['units'][number], s: Series) =>
    s === 'mine' ? u.correct_rate : s === 'all' ? u.average_all : u.average_organization;
  return (
    <figure className={styles.figure}>
      <svg
        className={styles.chart}
        viewBox={`0 0 ${width} ${chartHeight}`}
        role="img"
        aria-label={t`Correct answers per unit: you, all examinees and your organisation, in percent. The table below gives the numbers.`}
        direction="ltr"
        data-chart="units"
      >
        <defs>
          <pattern id="gradus-unit-mine" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" fill="var(--chart-mine, #1f5f8b)" />
            <line x1="0" y1="0" x2="0" y2="6" stroke="#ffffff" strokeWidth="2" />
          </pattern>
          <pattern id="gradus-unit-org" width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill="#e2f1e8" />
            <circle cx="3" cy="3" r="1.6" fill="var(--chart-org, #1e6b45)" />
          </pattern>
        </defs>
        <Group left={margin.left} top={margin.top}>
          {units.map((u) => (
            <Group key={u.unit} left={x0(u.unit) ?? 0}>
              {series.map((s) => {
                const value = valueOf(u, s);
                if (value === null) return null;
                return (
                  <Bar
                    key={s}
                    x={x1(s) ?? 0}
                    y={y(value)}
                    width={x1.bandwidth()}
                    height={inner - y(value)}
                    fill={fills[s]}
                    stroke={s === 'organization' ? 'var(--chart-org, #1e6b45)' : 'none'}
                  />
                );
              })}
            </Group>
          ))}
          <AxisLeft scale={y} numTicks={5} tickFormat={(v) => `${n(Number(v), language)}%`} tickLabelProps={{ fontSize: 14, fill: '#4c5852' }} />
          <AxisBottom
            top={inner}
            scale={x0}
            tickFormat={(unit) => unitName(i18n, unit)}
            tickLabelProps={{ fontSize: 14, fill: '#1c2420', textAnchor: 'middle' }}
          />
        </Group>
      </svg>
      <figcaption className={styles.legend}>
        {series.map((s) => (
          <span key={s} className={styles.legendItem} data-series={s}>
            <svg width="18" height="18" aria-hidden="true">
              <rect width="18" height="18" fill={fills[s]} stroke={s === 'organization' ? '#1e6b45' : 'none'} />
            </svg>
            {labels[s]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function n(value: number, language: LanguageKey): string {
  return formatNumber(value, language);
}
