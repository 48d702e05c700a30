/**
 * menuViewOf (machines/session/session.selectors.ts): the contract's ChoosePageStatus as the testing menu's states (seed section 2,
 * TestingMenu states), the release date only while it is still ahead, and the one primary action.
 */
import { describe, expect, it } from 'vitest';
import type { ChoosePageStatus } from '../../contract/results.ts';
import { menuViewOf } from '../../machines/session/session.selectors.ts';

const now = new Date('2026-11-22T09:00:00.000Z');

function status(overrides: {
  exam_fee?: Partial<ChoosePageStatus['exam_fee']>;
  exam?: Partial<ChoosePageStatus['exam']>;
  result?: Partial<ChoosePageStatus['result']>;
} = {}): ChoosePageStatus {
  return {
    exam_fee: { required: true, status: 0, ...overrides.exam_fee },
    exam: { schedule_history_id: 42, status: 0, can_take: false, ...overrides.exam },
    result: { released: false, payment_status: 0, ...overrides.result },
    server_time: now.toISOString(),
  };
}

describe('menuViewOf', () => {
  it('asks to pay the fee first: pay fee is the primary action, the test waits for it', () => {
    expect(menuViewOf(status(), now)).toEqual({ fee: 'to_pay', exam: 'needs_fee', result: 'not_finished', releaseAt: null, next: 'pay_fee' });
  });

  it('keeps the payment open while a checkout is pending ("payment not completed")', () => {
    const view = menuViewOf(status({ exam_fee: { status: 1 } }), now);
    expect(view).toMatchObject({ fee: 'pending', exam: 'needs_fee', next: 'pay_fee' });
  });

  it('offers the test once the fee is paid', () => {
    expect(menuViewOf(status({ exam_fee: { status: 2 }, exam: { can_take: true } }), now)).toMatchObject({
      fee: 'paid',
      exam: 'can_take',
      next: 'take_test',
    });
  });

  it('has no fee card when the fee is not paid online, and takes the test', () => {
    expect(menuViewOf(status({ exam_fee: { required: false }, exam: { can_take: true } }), now)).toMatchObject({
      fee: 'not_required',
      exam: 'can_take',
      next: 'take_test',
    });
  });

  it('says the test cannot be taken now for the server\'s other reasons, with no action', () => {
    expect(menuViewOf(status({ exam_fee: { status: 2 } }), now)).toMatchObject({ exam: 'unavailable', next: null });
    expect(menuViewOf(status({ exam: { status: null } , exam_fee: { required: false } }), now)).toMatchObject({ exam: 'unavailable', result: 'not_finished' });
  });

  it.each([1, 4, 8] as const)('waits for the release after the exam (status %i)', (examStatus) => {
    const view = menuViewOf(status({ exam_fee: { status: 2 }, exam: { status: examStatus } }), now);
    expect(view).toEqual({ fee: 'paid', exam: 'completed', result: 'waiting', releaseAt: null, next: null });
  });

  it('views the results once released', () => {
    const view = menuViewOf(status({ exam_fee: { status: 2 }, exam: { status: 5 }, result: { released: true } }), now);
    expect(view).toMatchObject({ exam: 'completed', result: 'viewable', next: 'view_results' });
  });

  it('says a released result past its two years is expired, with nothing to do (not waiting, not viewable)', () => {
    const view = menuViewOf(status({ exam_fee: { status: 2 }, exam: { status: 5 }, result: { released: true, expired: true } }), now);
    expect(view).toEqual({ fee: 'paid', exam: 'completed', result: 'expired', releaseAt: null, next: null });
  });

  it('gives the release date while it is ahead, and not once it has passed', () => {
    const ahead = '2026-11-29T09:00:00.000Z';
    const past = '2026-11-21T09:00:00.000Z';
    expect(menuViewOf(status({ exam: { status: 1 }, result: { release_at: ahead } }), now).releaseAt).toBe(ahead);
    expect(menuViewOf(status({ exam: { status: 1 }, result: { release_at: past } }), now).releaseAt).toBeNull();
    expect(menuViewOf(status({ exam: { status: 5 }, result: { released: true, release_at: past } }), now).releaseAt).toBeNull();
  });

  it('has no result for a cancelled or expired exam', () => {
    expect(menuViewOf(status({ exam: { status: 2 } }), now)).toMatchObject({ exam: 'cancelled', result: 'none', next: null });
    expect(menuViewOf(status({ exam: { status: 3 } }), now)).toMatchObject({ exam: 'cancelled', result: 'none' });
    expect(menuViewOf(status({ exam: { status: 7 } }), now)).toMatchObject({ exam: 'expired', result: 'none', next: null });
  });
});
