/**
 * The few icons Gradus uses, inline SVG. Always beside words (never information by an icon or
 * colour alone), so they are hidden from assistive technology.
 */
import type { ReactNode, SVGProps } from 'react';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>;

function Icon({ children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.25}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

/** An icon drawn by `shapes`: its circles, rectangles and paths in the 24 by 24 box. */
function icon(shapes: ReactNode) {
  return function DrawnIcon(props: IconProps) {
    return <Icon {...props}>{shapes}</Icon>;
  };
}

/** The full circle most icons are drawn in. */
const ring = <circle cx="12" cy="12" r="9.5" />;

export const CheckIcon = icon(<>{ring}<path d="m7.5 12.5 3 3 6-6.5" /></>);

export const SavingIcon = icon(<><path d="M20 12a8 8 0 1 1-2.34-5.66" /><path d="M20 4v4.5h-4.5" /></>);

export const CircleIcon = icon(<circle cx="12" cy="12" r="9.5" strokeDasharray="3 3" />);

/** A screen on a stand: "on this terminal". */
export const TerminalIcon = icon(<><rect x="3" y="4" width="18" height="12" rx="1.5" /><path d="M8 20h8" /><path d="M12 16v4" /></>);

/** A crossed-out signal: no connection. */
export const OfflineIcon = icon(
  <>
    <path d="M2 8.5a15 15 0 0 1 20 0" />
    <path d="M5.5 12a10 10 0 0 1 13 0" />
    <path d="M9 15.5a5 5 0 0 1 6 0" />
    <path d="M12 19h.01" />
    <path d="m3 3 18 18" />
  </>,
);

export const WarningIcon = icon(<><path d="M12 3.5 2.5 20h19L12 3.5Z" /><path d="M12 10v4.5" /><path d="M12 17.5h.01" /></>);

export const ErrorIcon = icon(<>{ring}<path d="M12 7v6" /><path d="M12 16.5h.01" /></>);

export const InfoIcon = icon(<>{ring}<path d="M12 11v6" /><path d="M12 7.5h.01" /></>);

export const ClockIcon = icon(<><circle cx="12" cy="13" r="8" /><path d="M12 9v4l2.5 2.5" /><path d="M9.5 2.5h5" /></>);

export const GlobeIcon = icon(
  <>
    {ring}
    <path d="M2.5 12h19" />
    <path d="M12 2.5c2.5 2.7 3.8 5.9 3.8 9.5s-1.3 6.8-3.8 9.5c-2.5-2.7-3.8-5.9-3.8-9.5S9.5 5.2 12 2.5Z" />
  </>,
);

/** Arrows that point along the reading direction: flipped in right-to-left text by CSS. */
export function ArrowIcon({ direction, ...props }: IconProps & { direction: 'back' | 'forward' }) {
  return (
    <Icon {...props} className="icon icon-directional">
      {direction === 'forward' ? <path d="M5 12h14m-6-6 6 6-6 6" /> : <path d="M19 12H5m6-6-6 6 6 6" />}
    </Icon>
  );
}

/** "Did not pass" on the short result: a circle with a cross. */
export const NotPassedIcon = icon(<>{ring}<path d="m8.5 8.5 7 7m0-7-7 7" /></>);

/** A padlock for the locked steps of the exam list. */
export const LockIcon = icon(<><rect x="4.5" y="10.5" width="15" height="10" rx="2" /><path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" /></>);
