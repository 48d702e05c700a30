/**
 * The session connect's screen parts (machines/session/session.connect.ts) as view tests give
 * them: a ready, empty or first state of each, every event a `vi.fn()`; a test overrides what it
 * shows or watches.
 */
import { vi } from 'vitest';
import { gradeIds } from '../../contract/session.ts';
import type {
  ExamListApi,
  InfoApi,
  InputInfoApi,
  LoginApi,
  LoginCodeApi,
  MenuApi,
  SessionApi,
} from '../../machines/session/session.connect.ts';

export function loginCodeApi(overrides: Partial<LoginCodeApi> = {}): LoginCodeApi {
  return { busy: false, error: null, submit: vi.fn(), ...overrides };
}

/** A school's login page, loaded, with nothing sent yet. */
export function loginApi(overrides: Partial<LoginApi> = {}): LoginApi {
  return {
    status: 'ready',
    place: { organizationName: 'Sakura Primary School', scheduleName: 'Spring test 2026', venueName: 'Room 2' },
    kind: 'id',
    ssoUrl: null,
    busy: false,
    error: null,
    submit: vi.fn(),
    retry: vi.fn(),
    ...overrides,
  };
}

/** An entry route (/oauth*, /app-entry) and its way to the login page. */
export function entryApi(entry: SessionApi['entry'], goToLogin: () => void = vi.fn()): Pick<SessionApi, 'entry' | 'goToLogin'> {
  return { entry, goToLogin };
}

/** The basic information form, empty, on its first step. */
export function inputInfoApi(overrides: Partial<InputInfoApi> = {}): InputInfoApi {
  return {
    step: 'editing',
    values: { examinee_name: '', grade_id: null, email: '' },
    errors: {},
    failure: null,
    grades: gradeIds,
    change: vi.fn(),
    review: vi.fn(),
    edit: vi.fn(),
    confirm: vi.fn(),
    ...overrides,
  };
}

export function infoApi(info: InfoApi['info'], acknowledge: () => void = vi.fn()): InfoApi {
  return { info, acknowledge };
}

/** The testing menu, loaded: fee paid, the test can be taken. */
export function menuApi(overrides: Partial<MenuApi> = {}): MenuApi {
  return {
    status: 'ready',
    menu: { fee: 'paid', exam: 'can_take', result: 'not_finished', releaseAt: null, next: 'take_test' },
    error: null,
    takeTest: vi.fn(),
    payFee: vi.fn(),
    viewResults: vi.fn(),
    retry: vi.fn(),
    logout: vi.fn(),
    ...overrides,
  };
}

/** The exam list, loaded, with no rows. */
export function examListApi(overrides: Partial<ExamListApi> = {}): ExamListApi {
  return { status: 'ready', rows: [], stepMode: false, error: null, choose: vi.fn(), retry: vi.fn(), logout: vi.fn(), ...overrides };
}
