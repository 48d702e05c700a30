/**
 * The entry routes' screen (/oauth*, /app-entry) bound to the session actor
 * (machines/session/session.connect.ts).
 */
import { BootingScreen } from '../../screens/booting/booting.tsx';
import { EntryScreen } from '../../screens/entry/entry.tsx';
import { useSession } from './use-session.ts';

export function ConnectedEntry() {
  const api = useSession();
  return api ? <EntryScreen api={api} /> : <BootingScreen />;
}
