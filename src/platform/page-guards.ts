/**
 * The kiosk's guards on the page while the pupil answers, as the exam screen asks for them:
 * - `useLeaveGuard(active)`: leaving the page (reload, closing the tab, typing another address)
 *   asks first; the browser shows its own words.
 * - `useFocusLossReport(active, report)`: every time the window loses the focus (another window,
 *   a system dialog) or the tab is hidden, `report` is called once (a hidden tab also blurs the
 *   window: one loss, not two). The exam machine counts and reports them; nothing blocks the pupil.
 * Both listen only while `active`, and stop when the screen goes away.
 */
import { useEffect, useRef } from 'react';

export function useLeaveGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

export function useFocusLossReport(active: boolean, report: () => void): void {
  const latest = useRef(report);
  useEffect(() => {
    latest.current = report;
  }, [report]);
  useEffect(() => {
    if (!active) return;
    let hidden = false;
    const onBlur = () => {
      if (!hidden) latest.current();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden' && !hidden) {
        hidden = true;
        latest.current();
      } else if (document.visibilityState === 'visible') {
        hidden = false;
      }
    };
    window.addEventListener('blur', onBlur);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('blur', onBlur);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [active]);
}
