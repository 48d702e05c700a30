/**
 * The testing-menu screen wired to the kiosk machine: its props come from useScreen('testing-menu');
 * the contract's status becomes the screen's MenuView at the server's clock.
 */
import { menuViewOf } from '../../screens/testing-menu/menu-view.ts';
import { TestingMenuScreen } from '../../screens/testing-menu/testing-menu.tsx';
import { useScreen } from '../kiosk-bindings.ts';

export function ConnectedTestingMenu() {
  const { menu, ...props } = useScreen('testing-menu');
  return <TestingMenuScreen {...props} menu={menu && menuViewOf(menu, new Date(menu.server_time))} />;
}
