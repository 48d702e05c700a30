/**
 * Most of the pupil's screens: one card, centred, that opens with the screen's heading (which
 * takes focus, page.tsx). In a file of its own, so the first screen's code (page.tsx is part of
 * it) does not carry it: the login-code screen has its own frame.
 */
import type { ReactNode } from 'react';
import { Page, PageHeading } from './page.tsx';

export function CardPage({ heading, children }: { heading: ReactNode; children: ReactNode }) {
  return (
    <Page align="center">
      <div className="card">
        <PageHeading>{heading}</PageHeading>
        {children}
      </div>
    </Page>
  );
}
