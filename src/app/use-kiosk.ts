/**
 * How the frame reads the kiosk (machines/kiosk/kiosk.connect.ts): one plain value of its
 * connect at a time, re-read on every change anywhere in the kiosk's system (kiosk.watch.ts),
 * so React renders again only when that value differs; and the connect as of a press, for an
 * event handler.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { connect, type KioskApi } from '../../machines/kiosk/kiosk.connect.ts';
import { watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { useKioskActor } from './actors.ts';

/** One value of the kiosk's connect: a primitive, so an unchanged value renders nothing. */
export function useKioskValue<T extends string | boolean | null>(select: (api: KioskApi) => T): T {
  const kiosk = useKioskActor();
  return useSyncExternalStore(
    (onChange) => watchKiosk(kiosk, onChange),
    () => select(connect(kiosk.getSnapshot(), kiosk.send)),
  );
}

/** The kiosk's connect when called (a button's press acts on the kiosk as it is then). */
export function useKioskApi(): () => KioskApi {
  const kiosk = useKioskActor();
  return useCallback(() => connect(kiosk.getSnapshot(), kiosk.send), [kiosk]);
}
