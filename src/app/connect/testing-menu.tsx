/**
 * The testing-menu screen wired to the kiosk machine: its props come from useScreen('testing-menu').
 */
import { TestingMenuScreen } from '../../screens/testing-menu/testing-menu.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedTestingMenu() {
  return <TestingMenuScreen {...useScreen('testing-menu')} />;
}
