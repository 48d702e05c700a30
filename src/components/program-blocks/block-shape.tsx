/**
 * The SVG outline of one Visual Programming block, stretched behind its text: a puzzle piece
 * with a notch on top and a tab below, so blocks visibly snap together; an event block wears a
 * rounded "hat" instead of the notch (a program starts with it). Fill and outline come from
 * the category (program-blocks.module.css); the category is also written on the block.
 */
import type { ProgramBlock } from '../../../contract/exam.ts';
import styles from './program-blocks.module.css';

const WIDTH = 300;

const NOTCH_TOP = 'H16 L22 7 H38 L44 0';
const HAT_TOP = 'C 30 -8 80 -8 110 0';

function outline(category: ProgramBlock['category']): string {
  const top = category === 'event' ? HAT_TOP : NOTCH_TOP;
  return [
    'M0 4 Q0 0 4 0',
    top,
    `H${WIDTH - 4} Q${WIDTH} 0 ${WIDTH} 4`,
    `V52 Q${WIDTH} 56 ${WIDTH - 4} 56`,
    // The tab that fits the next block's notch.
    'H44 L38 63 H22 L16 56',
    'H4 Q0 56 0 52 Z',
  ].join(' ');
}

export function BlockShape({ category }: { category: ProgramBlock['category'] }) {
  return (
    <svg
      className={styles.shape}
      data-category={category}
      viewBox={`-2 -10 ${WIDTH + 4} 76`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <path d={outline(category)} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
