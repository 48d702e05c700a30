// @vitest-environment jsdom
/**
 * The move dialog warns when the pupil's terminal may still hold answers the server has not: the
 * number it reported with its last heartbeat (the roster's waiting_answers), or, when it is
 * offline, those given since; with neither, no warning.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ActionDialogApi } from '../../machines/proctor/proctor.connect.ts';
import { ActionDialog } from '../../src/screens/proctor/action-dialog.tsx';
import { renderView } from '../helpers/render-view.tsx';

const move = (overrides: Partial<ActionDialogApi>): ActionDialogApi => ({
  kind: 'move_terminal',
  examineeName: 'Amara Okafor',
  answersSaved: 2,
  waitingAnswers: 0,
  terminalOffline: false,
  venueName: null,
  pupilsInExam: 0,
  asksMinutes: false,
  status: 'confirming',
  fieldErrors: {},
  failure: null,
  retryable: true,
  confirm: vi.fn(),
  cancel: vi.fn(),
  retry: vi.fn(),
  ...overrides,
});

describe('the move dialog', () => {
  it('warns of the answers the terminal said it has not sent yet', async () => {
    await renderView(<ActionDialog dialog={move({ waitingAnswers: 3, terminalOffline: true })} />);
    expect(screen.getByRole('note').textContent).toBe(
      'Answers waiting on this terminal, not yet on the server: 3. Leave it switched on: they are sent once its network is back.',
    );
  });

  it('warns that an offline terminal may hold answers given since it was last heard from', async () => {
    await renderView(<ActionDialog dialog={move({ terminalOffline: true })} />);
    expect(screen.getByRole('note').textContent).toBe(
      'This terminal has not been heard from for a while: answers given there since then may still be on it. Leave it switched on: they are sent once its network is back.',
    );
  });

  it('says nothing more for a terminal in contact with nothing waiting', async () => {
    await renderView(<ActionDialog dialog={move({})} />);
    expect(screen.getByRole('dialog', { name: 'Move Amara Okafor to another terminal?' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });
});
