/**
 * How the frame reads the kiosk (machines/kiosk/kiosk.connect.ts): one plain value of its
 * connect at a time, re-read on every change anywhere in the kiosk's system (kiosk.watch.ts),
 * so React renders again only when that value differs; and the connect as of a press, for an
 * event handler.
 *
 * The connect is made once per change, not once per value: one
 * watcher per kiosk counts the changes, and every value read until the next change shares the
 * connect made for this one.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { connect, type KioskApi } from '../../machines/kiosk/kiosk.connect.ts';
import { watchKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { useKioskActor, type KioskActor } from './actors.ts';

/** Per kiosk: how many changes its system has seen, and the connect made at which count. */
const connects = new WeakMap<KioskActor, { changes: number; made: { at: number; api: KioskApi } | null }>();

/** The kiosk's connect as of its last change (made at most once per change). */
function currentConnect(kiosk: KioskActor): KioskApi {
  let entry = connects.get(kiosk);
  if (!entry) {
    const created: { changes: number; made: { at: number; api: KioskApi } | null } = { changes: 0, made: null };
    // Never stopped: it lives as long as the kiosk's system (which holds it) does.
    watchKiosk(kiosk, () => {
      created.changes++;
    });
    connects.set(kiosk, created);
    entry = created;
  }
  if (entry.made?.at !== entry.changes) entry.made = { at: entry.changes, api: connect(kiosk.getSnapshot(), kiosk.send) };
  return entry.made.api;
}

/** One value of the kiosk's connect: a primitive, so an unchanged value renders nothing. */
export function useKioskValue<T extends string | boolean | null>(select: (api: KioskApi) => T): T {
  const kiosk = useKioskActor();
  const subscribe = useCallback((onChange: () => void) => watchKiosk(kiosk, onChange), [kiosk]);
  return useSyncExternalStore(subscribe, () => select(currentConnect(kiosk)));
}

/** The kiosk's connect when called (a button's press acts on the kiosk as it is then). */
export function useKioskApi(): () => KioskApi {
  const kiosk = useKioskActor();
  return useCallback(() => connect(kiosk.getSnapshot(), kiosk.send), [kiosk]);
}

/** "Check this terminal" of a login page: acts on the kiosk as it is when the link is pressed. */
export function useCheckTerminal(): Pick<KioskApi, 'checkTerminal'> {
  const kiosk = useKioskApi();
  return { checkTerminal: () => kiosk().checkTerminal() };
}
