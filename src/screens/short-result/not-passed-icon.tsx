/**
 * "Did not pass": a circle with a cross, drawn like the shared icons (src/components/icon) and,
 * like them, always beside the words and hidden from assistive technology.
 */
import type { SVGProps } from 'react';

export function NotPassedIcon(props: Omit<SVGProps<SVGSVGElement>, 'children'>) {
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
      <circle cx="12" cy="12" r="9.5" />
      <path d="m8.5 8.5 7 7m0-7-7 7" />
    </svg>
  );
}
