/**
 * What the terminal shows while the kiosk machine restores the session at boot (or while it
 * judges a URL): a calm full-page skeleton, no spinner, no words but a hidden "Loading…".
 */
import { Page } from '../../components/page/page.tsx';
import { SkeletonBlock, SkeletonRegion } from '../../components/skeleton/skeleton.tsx';

export type BootingScreenProps = Record<string, never>;

export function BootingScreen(_props: BootingScreenProps) {
  return (
    <Page align="center">
      <div className="card">
        <SkeletonRegion>
          <SkeletonBlock inlineSize="65%" blockSize="2.25rem" />
          <SkeletonBlock inlineSize="90%" />
          <SkeletonBlock inlineSize="80%" />
          <SkeletonBlock shape="box" blockSize="3.75rem" />
          <SkeletonBlock shape="button" />
        </SkeletonRegion>
      </div>
    </Page>
  );
}
