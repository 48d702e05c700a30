/**
 * Personal or group mode (seed section 3, "Personal or group mode: 1, 2") on the testing menu:
 * the session decides from the contract's `exam_fee.application_mode` that in group mode (the
 * school applied and settled the fee) the fee card says the school paid, the test is never
 * blocked by the fee, and "pay the fee" goes nowhere; in personal mode the pupil pays first.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApplicationMode } from '../../contract/enums.ts';
import type { ChoosePageStatus } from '../../contract/results.ts';
import { createKioskMachine } from '../../machines/kiosk/kiosk.actors.ts';
import { selectPath } from '../../machines/kiosk/kiosk.selectors.ts';
import { waitForKiosk } from '../../machines/kiosk/kiosk.watch.ts';
import { menuViewOf } from '../../machines/session/session.selectors.ts';
import { readSession } from '../../machines/shared/storage.ts';
import { createFakeApi, DEMO_PASSWORD, demoChooseStatus, demoLogins, demoOrganizations } from '../helpers/fake-api.ts';
import { memoryStorage } from '../helpers/memory-storage.ts';

const now = new Date('2026-11-22T09:00:00.000Z');
const status = (examFee: ChoosePageStatus['exam_fee'], canTake: boolean): ChoosePageStatus => ({
  ...structuredClone(demoChooseStatus),
  exam_fee: examFee,
  exam: { ...demoChooseStatus.exam, can_take: canTake },
  server_time: now.toISOString(),
});

describe('the menu rule: who is asked for the exam fee', () => {
  it('personal mode, unpaid: the fee blocks the test and is the one thing to do', () => {
    expect(menuViewOf(status({ required: true, status: 0, application_mode: ApplicationMode.PERSONAL }, false), now)).toMatchObject({
      fee: 'to_pay',
      exam: 'needs_fee',
      next: 'pay_fee',
    });
  });

  it('group mode: the school paid; the test can be taken at once', () => {
    expect(menuViewOf(status({ required: false, status: 0, application_mode: ApplicationMode.GROUP }, true), now)).toMatchObject({
      fee: 'school_paid',
      exam: 'can_take',
      next: 'take_test',
    });
  });

  it('group mode with the period not open yet: unavailable, never "pay the fee first"', () => {
    const view = menuViewOf(status({ required: false, status: 0, application_mode: ApplicationMode.GROUP }, false), now);
    expect(view).toMatchObject({ fee: 'school_paid', exam: 'unavailable', next: null });
  });

  it('group mode wins even over a stale `required: true`: the school has paid', () => {
    const view = menuViewOf(status({ required: true, status: 0, application_mode: ApplicationMode.GROUP }, false), now);
    expect(view.fee).toBe('school_paid');
    expect(view.exam).not.toBe('needs_fee');
    expect(view.next).not.toBe('pay_fee');
  });

  it('no mode on the wire (an older server) is personal', () => {
    expect(menuViewOf(status({ required: true, status: 0 }, false), now).fee).toBe('to_pay');
  });
});

describe('the session machine on the testing menu', () => {
  /** A registered foreign-payment pupil on the testing menu, with this menu from the server. */
  async function onTheMenu(menu: ChoosePageStatus['exam_fee'], canTake: boolean) {
    const api = createFakeApi();
    api.menu = { ...structuredClone(demoChooseStatus), exam_fee: menu, exam: { ...demoChooseStatus.exam, can_take: canTake } };
    const storage = memoryStorage();
    const actor = createActor(createKioskMachine({ api, storage, leaveApp: () => {} }), { input: { storedSession: readSession(storage) } }).start();
    actor.send({ type: 'location.changed', path: '/login', search: { org_code: demoOrganizations.id } });
    const session = () => actor.getSnapshot().children.session!;
    await waitForKiosk(actor, (s) => s.children.session?.getSnapshot().matches({ signedOut: { login: 'ready' } }) ?? false);
    session().send({ type: 'login.submitted', login_id: demoLogins.registered, password: DEMO_PASSWORD });
    await waitForKiosk(actor, (s) => selectPath(s) === '/examinee-info');
    session().send({ type: 'basicInfo.acknowledged' });
    await waitForKiosk(actor, (s) => s.children.session?.getSnapshot().matches({ signedIn: { testingMenu: 'ready' } }) ?? false);
    return { actor, session };
  }

  it('personal mode: "pay the fee" opens the exam fee payment', async () => {
    const { actor, session } = await onTheMenu({ required: true, status: 0, application_mode: ApplicationMode.PERSONAL }, false);
    session().send({ type: 'fee.payRequested' });
    await waitForKiosk(actor, (s) => selectPath(s) === '/pay-exam-fee');
    expect(session().getSnapshot().matches({ signedIn: 'payExamFee' })).toBe(true);
  });

  it('group mode: "pay the fee" goes nowhere, even if the server still said required; the test is taken', async () => {
    const { actor, session } = await onTheMenu({ required: true, status: 0, application_mode: ApplicationMode.GROUP }, true);
    session().send({ type: 'fee.payRequested' });
    expect(session().getSnapshot().matches({ signedIn: { testingMenu: 'ready' } })).toBe(true);
    expect(selectPath(actor.getSnapshot())).toBe('/testing-menu');
    session().send({ type: 'test.chosen' });
    await waitForKiosk(actor, (s) => selectPath(s) === '/login-confirm');
  });
});
