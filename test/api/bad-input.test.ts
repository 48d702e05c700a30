/**
 * Bad input to every endpoint: each request below is answered with a 4xx and a contract error
 * code (never a 500), and leaves every table exactly as it was.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ErrorCode } from '../../contract/errors.ts';
import { testDatabaseKinds } from '../helpers/db.ts';
import { errorOf, TEST_START, useApi, type ApiContext, type CallOptions } from '../helpers/server-api.ts';
import { addSitting, answerKey, snapshotTables, type TableSnapshot } from '../helpers/server-fixtures.ts';

const kinds = await testDatabaseKinds();

/** What the cases need: a pupil in the middle of the exam (id, token, a question of each type). */
type Fixture = { token: string; id: number; choiceQuestion: number; textQuestion: number };

type Case = {
  name: string;
  method: 'GET' | 'POST';
  path: (f: Fixture) => string;
  options?: (f: Fixture) => CallOptions;
  status: number;
  code: ErrorCode;
  /** Expected issues of a VALIDATION_ERROR, when the case is about particular fields. */
  issues?: { field: string; rule: 'required' | 'invalid' }[];
};

const MALFORMED_BODIES: [string, string, number][] = [
  ['truncated JSON', '{"schedule_history_id": 1', 400],
  ['not JSON at all', 'schedule_history_id=1', 400],
  ['a body of 20 kB', JSON.stringify({ padding: 'x'.repeat(20_000) }), 400],
  ['JSON null', 'null', 422],
  ['a JSON array', '[]', 422],
  ['a JSON string', '"hello"', 422],
  ['a JSON number', '42', 422],
];

function malformedBodyCases(path: string, token: boolean): Case[] {
  return MALFORMED_BODIES.map(([what, rawBody, status]) => ({
    name: `POST ${path} with ${what}`,
    method: 'POST',
    path: () => path,
    options: (f) => ({ rawBody, token: token ? f.token : undefined }),
    status,
    code: 'VALIDATION_ERROR',
  }));
}

function noLoginCases(method: 'GET' | 'POST', path: (f: Fixture) => string, body?: (f: Fixture) => unknown): Case[] {
  const authorizations: [string, string | undefined][] = [
    ['no Authorization', undefined],
    ['an empty bearer', 'Bearer '],
    ['a Basic credential', 'Basic dXNlcjpwYXNz'],
    ['a malformed token', 'Bearer not-a-token'],
    ['an unknown token', `Bearer ${'A'.repeat(43)}`],
    ['a token with a NUL-like escape', 'Bearer %00%00%00'],
  ];
  return authorizations.map(([what, authorization]): Case => ({
    name: `${method} ${path({ token: '', id: 1, choiceQuestion: 1, textQuestion: 1 }).split('?')[0]} with ${what}`,
    method,
    path,
    options: (f): CallOptions => ({
      body: body?.(f),
      headers: authorization === undefined ? {} : { Authorization: authorization },
    }),
    status: 401,
    code: 'NOT_LOGGED_IN',
  }));
}

const loginCases: Case[] = [
  ...malformedBodyCases('/api/login', false),
  ...(
    [
      ['no fields', {}, [{ field: 'login_type', rule: 'required' }]],
      ['no login code', { login_type: 0 }, [{ field: 'login_code', rule: 'required' }]],
      ['no login type', { login_code: 'CAT7-TEAM-3463' }, [{ field: 'login_type', rule: 'required' }]],
      ['login type 1 with a code', { login_type: 1, login_code: 'CAT7-TEAM-3463' }, [{ field: 'login_id', rule: 'required' }, { field: 'password', rule: 'required' }]],
      ['login type 5 (not on /login)', { login_type: 5, login_id: 'hana.kim', password: 'gradus-demo' }, [{ field: 'login_type', rule: 'invalid' }]],
      ['login type as a string', { login_type: '0', login_code: 'CAT7-TEAM-3463' }, [{ field: 'login_type', rule: 'invalid' }]],
      ['an empty code', { login_type: 0, login_code: '' }, [{ field: 'login_code', rule: 'required' }]],
      ['a null code', { login_type: 0, login_code: null }, [{ field: 'login_code', rule: 'required' }]],
      ['a numeric code', { login_type: 0, login_code: 346334633463 }, [{ field: 'login_code', rule: 'invalid' }]],
      ['a short code', { login_type: 0, login_code: 'CAT7-TEAM' }, [{ field: 'login_code', rule: 'invalid' }]],
      ['a code with 0 (not in the alphabet)', { login_type: 0, login_code: 'CAT0-TEAM-3463' }, [{ field: 'login_code', rule: 'invalid' }]],
      ['a 13-character code', { login_type: 0, login_code: 'CAT7-TEAM-34633' }, [{ field: 'login_code', rule: 'invalid' }]],
      ['a huge code', { login_type: 0, login_code: 'A'.repeat(10_000) }, [{ field: 'login_code', rule: 'invalid' }]],
      ['a code with NUL', { login_type: 0, login_code: 'CAT7-TEAM-346\u0000' }, [{ field: 'login_code', rule: 'invalid' }]],
      ['an operator object as code', { login_type: 0, login_code: { $ne: null } }, [{ field: 'login_code', rule: 'invalid' }]],
      ['SQL in the code', { login_type: 0, login_code: "' OR 1=1 --" }, [{ field: 'login_code', rule: 'invalid' }]],
    ] as const
  ).map(
    ([what, body, issues]): Case => ({
      name: `POST /api/login with ${what}`,
      method: 'POST',
      path: () => '/api/login',
      options: () => ({ body }),
      status: 422,
      code: 'VALIDATION_ERROR',
      issues: [...issues],
    }),
  ),
  {
    name: 'POST /api/login with a well-formed code nobody has',
    method: 'POST',
    path: () => '/api/login',
    options: () => ({ body: { login_type: 0, login_code: 'yyyy-yyyy-yyyy' } }),
    status: 401,
    code: 'LOGIN_CODE_INCORRECT',
  },
  {
    name: 'POST /api/login with a malformed X-Locale',
    method: 'POST',
    path: () => '/api/login',
    options: () => ({ body: { login_type: 0, login_code: 'CAT7-TEAM-3463' }, headers: { 'X-Locale': '../../etc' } }),
    status: 422,
    code: 'VALIDATION_ERROR',
    issues: [{ field: 'X-Locale', rule: 'invalid' }],
  },
];

function queryCases(path: string): Case[] {
  const bad: [string, string, number, ErrorCode, ('required' | 'invalid')?][] = [
    ['no query', '', 422, 'VALIDATION_ERROR', 'required'],
    ['an empty id', '?schedule_history_id=', 422, 'VALIDATION_ERROR', 'required'],
    ['a word', '?schedule_history_id=abc', 422, 'VALIDATION_ERROR', 'invalid'],
    ['zero', '?schedule_history_id=0', 422, 'VALIDATION_ERROR', 'invalid'],
    ['a negative id', '?schedule_history_id=-1', 422, 'VALIDATION_ERROR', 'invalid'],
    ['a decimal', '?schedule_history_id=1.5', 422, 'VALIDATION_ERROR', 'invalid'],
    ['an exponent', '?schedule_history_id=1e3', 422, 'VALIDATION_ERROR', 'invalid'],
    ['a leading zero', '?schedule_history_id=01', 422, 'VALIDATION_ERROR', 'invalid'],
    ['SQL', "?schedule_history_id=1%20OR%201%3D1", 422, 'VALIDATION_ERROR', 'invalid'],
    ['11 digits', '?schedule_history_id=12345678901', 422, 'VALIDATION_ERROR', 'invalid'],
    ['the wrong parameter name', '?id=1', 422, 'VALIDATION_ERROR', 'required'],
    ['an id beyond the integer range', '?schedule_history_id=9999999999', 404, 'NOT_FOUND'],
    ['an id that does not exist', '?schedule_history_id=2147483647', 404, 'NOT_FOUND'],
  ];
  return [
    ...noLoginCases('GET', (f) => `${path}?schedule_history_id=${f.id}`),
    ...bad.map(
      ([what, query, status, code, rule]): Case => ({
        name: `GET ${path} with ${what}`,
        method: 'GET',
        path: () => `${path}${query}`,
        options: (f) => ({ token: f.token }),
        status,
        code,
        issues: rule ? [{ field: 'schedule_history_id', rule }] : undefined,
      }),
    ),
  ];
}

function scheduleHistoryBodyCases(path: string): Case[] {
  const bad: [string, unknown, number, ErrorCode, ('required' | 'invalid')?][] = [
    ['no fields', {}, 422, 'VALIDATION_ERROR', 'required'],
    ['a null id', { schedule_history_id: null }, 422, 'VALIDATION_ERROR', 'required'],
    ['the id as a string', { schedule_history_id: '1' }, 422, 'VALIDATION_ERROR', 'invalid'],
    ['zero', { schedule_history_id: 0 }, 422, 'VALIDATION_ERROR', 'invalid'],
    ['a negative id', { schedule_history_id: -5 }, 422, 'VALIDATION_ERROR', 'invalid'],
    ['a decimal', { schedule_history_id: 1.5 }, 422, 'VALIDATION_ERROR', 'invalid'],
    ['a boolean', { schedule_history_id: true }, 422, 'VALIDATION_ERROR', 'invalid'],
    ['an array', { schedule_history_id: [1] }, 422, 'VALIDATION_ERROR', 'invalid'],
    ['an id beyond the integer range', { schedule_history_id: 1e20 }, 404, 'NOT_FOUND'],
    ['an id that does not exist', { schedule_history_id: 2_000_000_000 }, 404, 'NOT_FOUND'],
  ];
  return [
    ...noLoginCases('POST', () => path, (f) => ({ schedule_history_id: f.id })),
    ...malformedBodyCases(path, true),
    ...bad.map(
      ([what, body, status, code, rule]): Case => ({
        name: `POST ${path} with ${what}`,
        method: 'POST',
        path: () => path,
        options: (f) => ({ token: f.token, body }),
        status,
        code,
        issues: rule ? [{ field: 'schedule_history_id', rule }] : undefined,
      }),
    ),
  ];
}

const startCases: Case[] = [
  ...scheduleHistoryBodyCases('/api/exam/start'),
  {
    name: 'POST /api/exam/start with a malformed X-Device-Token',
    method: 'POST',
    path: () => '/api/exam/start',
    options: (f) => ({ token: f.token, body: { schedule_history_id: f.id }, headers: { 'X-Device-Token': 'a b' } }),
    status: 422,
    code: 'VALIDATION_ERROR',
    issues: [{ field: 'X-Device-Token', rule: 'invalid' }],
  },
];

/** A valid answer with one field changed (`undefined` removes the field). */
function answerCase(
  what: string,
  change: (f: Fixture) => Record<string, unknown>,
  expected: { status?: number; code?: ErrorCode; issues?: Case['issues'] },
): Case {
  return {
    name: `POST /api/exam/answers with ${what}`,
    method: 'POST',
    path: () => '/api/exam/answers',
    options: (f) => ({
      token: f.token,
      body: {
        schedule_history_id: f.id,
        question_id: f.choiceQuestion,
        value: 'b',
        idempotency_key: randomUUID(),
        answered_at: TEST_START,
        ...change(f),
      },
    }),
    status: expected.status ?? 422,
    code: expected.code ?? 'VALIDATION_ERROR',
    issues: expected.issues,
  };
}

const invalid = (field: string) => ({ issues: [{ field, rule: 'invalid' as const }] });
const required = (field: string) => ({ issues: [{ field, rule: 'required' as const }] });

const answerCases: Case[] = [
  ...noLoginCases('POST', () => '/api/exam/answers', (f) => ({ schedule_history_id: f.id })),
  ...malformedBodyCases('/api/exam/answers', true),
  answerCase('no schedule history', () => ({ schedule_history_id: undefined }), required('schedule_history_id')),
  answerCase('no question', () => ({ question_id: undefined }), required('question_id')),
  answerCase('no value', () => ({ value: undefined }), required('value')),
  answerCase('no idempotency key', () => ({ idempotency_key: undefined }), required('idempotency_key')),
  answerCase('no answer time', () => ({ answered_at: undefined }), required('answered_at')),
  answerCase('the question id as a string', (f) => ({ question_id: String(f.choiceQuestion) }), invalid('question_id')),
  answerCase('question 0', () => ({ question_id: 0 }), invalid('question_id')),
  answerCase('a question beyond the integer range', () => ({ question_id: 3_000_000_000 }), invalid('question_id')),
  answerCase('a question that does not exist', () => ({ question_id: 2_000_000_000 }), invalid('question_id')),
  answerCase('a value that is a number', () => ({ value: 2 }), invalid('value')),
  answerCase('a null value', () => ({ value: null }), required('value')),
  answerCase('a value of 501 characters', (f) => ({ question_id: f.textQuestion, value: 'a'.repeat(501) }), invalid('value')),
  answerCase('a value with NUL', (f) => ({ question_id: f.textQuestion, value: 'co\u0000ld' }), invalid('value')),
  answerCase('a value with a lone surrogate', (f) => ({ question_id: f.textQuestion, value: 'cold\ud800' }), invalid('value')),
  answerCase('a choice the question does not have', () => ({ value: 'z' }), invalid('value')),
  answerCase('an idempotency key that is not a uuid', () => ({ idempotency_key: 'key-1' }), invalid('idempotency_key')),
  answerCase('an answer time in words', () => ({ answered_at: 'just now' }), invalid('answered_at')),
  answerCase('an answer time without a zone', () => ({ answered_at: '2026-06-01T09:00:00' }), invalid('answered_at')),
  answerCase('an answer time on 31 February', () => ({ answered_at: '2026-02-31T09:00:00Z' }), invalid('answered_at')),
  answerCase('an answer time as a number', () => ({ answered_at: Date.parse(TEST_START) }), invalid('answered_at')),
  answerCase('an answer time half an hour in the future', () => ({ answered_at: '2026-06-01T09:30:00Z' }), invalid('answered_at')),
  answerCase('an answer time before Start', () => ({ answered_at: '2026-06-01T07:00:00Z' }), invalid('answered_at')),
  answerCase('an answer time after the deadline', () => ({ answered_at: '2026-06-01T09:40:00.001Z' }), {
    status: 403,
    code: 'TIME_END',
  }),
  answerCase('a schedule history that does not exist', () => ({ schedule_history_id: 2_000_000_000 }), {
    status: 404,
    code: 'NOT_FOUND',
  }),
];

const logoutCases: Case[] = noLoginCases('POST', () => '/api/logout');

type BodyCase = [string, unknown, number, ErrorCode, Case['issues']?];

function bodyCases(path: string, token: boolean, cases: BodyCase[]): Case[] {
  return cases.map(([what, body, status, code, issues]) => ({
    name: `POST ${path} with ${what}`,
    method: 'POST',
    path: () => path,
    options: (f) => ({ body, token: token ? f.token : undefined }),
    status,
    code,
    issues,
  }));
}

type QueryCase = [string, string, number, ErrorCode, Case['issues']?];

function getCases(path: string, token: boolean, cases: QueryCase[]): Case[] {
  return cases.map(([what, query, status, code, issues]) => ({
    name: `GET ${path} with ${what}`,
    method: 'GET',
    path: () => `${path}${query}`,
    options: (f) => ({ token: token ? f.token : undefined }),
    status,
    code,
    issues,
  }));
}

const req = (...fields: string[]) => fields.map((field) => ({ field, rule: 'required' as const }));
const inv = (...fields: string[]) => fields.map((field) => ({ field, rule: 'invalid' as const }));
const idLogin = { login_type: 1, login_id: 'nobody.at.all', password: 'a password' };

const loginIdCases: Case[] = bodyCases('/api/login', false, [
  ['login type 1 without ID and password', { login_type: 1 }, 422, 'VALIDATION_ERROR', req('login_id', 'password')],
  ['a blank login ID', { ...idLogin, login_id: '   ' }, 422, 'VALIDATION_ERROR', req('login_id')],
  ['an empty password', { ...idLogin, password: '' }, 422, 'VALIDATION_ERROR', req('password')],
  ['a login ID of 65 characters', { ...idLogin, login_id: 'x'.repeat(65) }, 422, 'VALIDATION_ERROR', inv('login_id')],
  ['a password of 129 characters', { ...idLogin, password: 'x'.repeat(129) }, 422, 'VALIDATION_ERROR', inv('password')],
  ['a numeric password', { ...idLogin, password: 12345678 }, 422, 'VALIDATION_ERROR', inv('password')],
  ['a password with NUL', { ...idLogin, password: 'pass\u0000word' }, 422, 'VALIDATION_ERROR', inv('password')],
  ['an operator object as login ID', { ...idLogin, login_id: { $ne: null } }, 422, 'VALIDATION_ERROR', inv('login_id')],
  ['an org code with a slash', { ...idLogin, org_code: '../GRADUS' }, 422, 'VALIDATION_ERROR', inv('org_code')],
  ['a schedule code with SQL', { ...idLogin, schedule_code: "x' OR 1=1" }, 422, 'VALIDATION_ERROR', inv('schedule_code')],
  ['a venue id as a string', { ...idLogin, schedule_code: 'DEMO-2026', venue_id: '1' }, 422, 'VALIDATION_ERROR', inv('venue_id')],
  ['venue 0', { ...idLogin, schedule_code: 'DEMO-2026', venue_id: 0 }, 422, 'VALIDATION_ERROR', inv('venue_id')],
  ['an ID nobody has', idLogin, 401, 'INCORRECT_ID_PASSWORD'],
  ['an ID nobody has on a school page', { ...idLogin, org_code: 'GRADUS-DEMO' }, 401, 'INCORRECT_ID_PASSWORD'],
  ['an unknown school page', { ...idLogin, org_code: 'NO-SUCH-ORG' }, 404, 'INVALID_SCHEDULE'],
  ['an unknown schedule page', { ...idLogin, schedule_code: 'NO-SUCH-SCHEDULE' }, 404, 'INVALID_SCHEDULE'],
  ['a venue that is not the schedule\'s', { ...idLogin, schedule_code: 'DEMO-2026', venue_id: 2_000_000_000 }, 404, 'INVALID_SCHEDULE'],
]);

const examineeLogin = { login_id: 'nobody.at.all', password: 'a password', org_code: 'GRADUS-HOME' };
const loginExamineeCases: Case[] = [
  ...malformedBodyCases('/api/login-examinee', false),
  ...bodyCases('/api/login-examinee', false, [
    ['no fields', {}, 422, 'VALIDATION_ERROR', req('login_id', 'password', 'org_code')],
    ['no org code', { ...examineeLogin, org_code: undefined }, 422, 'VALIDATION_ERROR', req('org_code')],
    ['an org code of 65 characters', { ...examineeLogin, org_code: 'A'.repeat(65) }, 422, 'VALIDATION_ERROR', inv('org_code')],
    ['an org code with spaces inside', { ...examineeLogin, org_code: 'GRADUS HOME' }, 422, 'VALIDATION_ERROR', inv('org_code')],
    ['a numeric login ID', { ...examineeLogin, login_id: 42 }, 422, 'VALIDATION_ERROR', inv('login_id')],
    ['a password array', { ...examineeLogin, password: ['a'] }, 422, 'VALIDATION_ERROR', inv('password')],
    ['an ID nobody has', examineeLogin, 401, 'INCORRECT_ID_PASSWORD'],
    ['an unknown organisation', { ...examineeLogin, org_code: 'NO-SUCH-ORG' }, 404, 'INVALID_SCHEDULE'],
  ]),
];

const organizationCases: Case[] = getCases('/api/organization', false, [
  ['no query', '', 422, 'VALIDATION_ERROR', req('code')],
  ['an empty code', '?code=', 422, 'VALIDATION_ERROR', req('code')],
  ['a code with spaces inside', '?code=GRADUS%20DEMO', 422, 'VALIDATION_ERROR', inv('code')],
  ['a code of 65 characters', `?code=${'A'.repeat(65)}`, 422, 'VALIDATION_ERROR', inv('code')],
  ['SQL', "?code=x'%20OR%201%3D1", 422, 'VALIDATION_ERROR', inv('code')],
  ['a code with NUL', '?code=GRADUS%00', 422, 'VALIDATION_ERROR', inv('code')],
  ['an unknown code', '?code=NO-SUCH-ORG', 404, 'INVALID_SCHEDULE'],
]);

const scheduleCases: Case[] = getCases('/api/schedule', false, [
  ['no query', '', 422, 'VALIDATION_ERROR', req('schedule_code', 'login_type')],
  ['no login type', '?schedule_code=DEMO-2026', 422, 'VALIDATION_ERROR', req('login_type')],
  ['login type 8', '?schedule_code=DEMO-2026&login_type=8', 422, 'VALIDATION_ERROR', inv('login_type')],
  ['login type as a word', '?schedule_code=DEMO-2026&login_type=id', 422, 'VALIDATION_ERROR', inv('login_type')],
  ['a venue id as a word', '?schedule_code=DEMO-2026&login_type=1&venue_id=lab', 422, 'VALIDATION_ERROR', inv('venue_id')],
  ['venue 0', '?schedule_code=DEMO-2026&login_type=1&venue_id=0', 422, 'VALIDATION_ERROR', inv('venue_id')],
  ['a bad org code', '?schedule_code=DEMO-2026&login_type=1&org_code=%3Cb%3E', 422, 'VALIDATION_ERROR', inv('org_code')],
  ['an unknown schedule', '?schedule_code=NO-SUCH&login_type=0', 404, 'INVALID_SCHEDULE'],
  ['a venue beyond the integer range', '?schedule_code=DEMO-2026&login_type=1&venue_id=9999999999', 404, 'INVALID_SCHEDULE'],
  ['another organisation', '?schedule_code=DEMO-2026&login_type=1&org_code=GRADUS-HOME', 404, 'INVALID_SCHEDULE'],
]);

const appScheduleCases: Case[] = getCases('/api/app-schedule', false, [
  ['no query', '', 422, 'VALIDATION_ERROR', req('organization_code')],
  ['the wrong parameter name', '?code=GRADUS-DEMO', 422, 'VALIDATION_ERROR', req('organization_code')],
  ['a bad code', '?organization_code=%F0%9F%98%80', 422, 'VALIDATION_ERROR', inv('organization_code')],
  ['an unknown code', '?organization_code=NO-SUCH-ORG', 404, 'INVALID_SCHEDULE'],
]);

const basicInfo = { examinee_name: 'Pupil Name', grade_id: 4, email: 'pupil@example.org' };
const saveExamineeInfoCases: Case[] = [
  ...noLoginCases('POST', () => '/api/save-examinee-info', () => basicInfo),
  ...malformedBodyCases('/api/save-examinee-info', true),
  ...bodyCases('/api/save-examinee-info', true, [
    ['no fields', {}, 422, 'VALIDATION_ERROR', req('examinee_name', 'grade_id', 'email')],
    ['a null name', { ...basicInfo, examinee_name: null }, 422, 'VALIDATION_ERROR', req('examinee_name')],
    ['an empty email', { ...basicInfo, email: '' }, 422, 'VALIDATION_ERROR', req('email')],
    ['an invalid email', { ...basicInfo, email: 'pupil@' }, 422, 'VALIDATION_ERROR', inv('email')],
    ['an email of 255 characters', { ...basicInfo, email: `${'a'.repeat(243)}@example.org` }, 422, 'VALIDATION_ERROR', inv('email')],
    ['grade 0', { ...basicInfo, grade_id: 0 }, 422, 'VALIDATION_ERROR', inv('grade_id')],
    ['grade 98', { ...basicInfo, grade_id: 98 }, 422, 'VALIDATION_ERROR', inv('grade_id')],
    ['a null grade', { ...basicInfo, grade_id: null }, 422, 'VALIDATION_ERROR', req('grade_id')],
    ['a name with a lone surrogate', { ...basicInfo, examinee_name: 'Pupil\ud800' }, 422, 'VALIDATION_ERROR', inv('examinee_name')],
  ]),
];

const choosePageCases: Case[] = [
  ...noLoginCases('GET', () => '/api/get-status-choose-page'),
  ...getCases('/api/get-status-choose-page', true, [
    ['an id that is a word', '?schedule_history_id=abc', 422, 'VALIDATION_ERROR', inv('schedule_history_id')],
    ['id 0', '?schedule_history_id=0', 422, 'VALIDATION_ERROR', inv('schedule_history_id')],
    ['a negative id', '?schedule_history_id=-3', 422, 'VALIDATION_ERROR', inv('schedule_history_id')],
    ['an id that does not exist', '?schedule_history_id=2147483647', 404, 'NOT_FOUND'],
    ['an id beyond the integer range', '?schedule_history_id=9999999999', 404, 'NOT_FOUND'],
  ]),
];

const endpoints: [string, Case[]][] = [
  ['POST /api/login', loginCases],
  ['GET /api/exam-details', queryCases('/api/exam-details')],
  ['POST /api/exam/start', startCases],
  ['GET /api/exam/questions', queryCases('/api/exam/questions')],
  ['POST /api/exam/answers', answerCases],
  ['POST /api/exam/finish', scheduleHistoryBodyCases('/api/exam/finish')],
  ['POST /api/logout', logoutCases],
  ['POST /api/login (login type 1)', loginIdCases],
  ['POST /api/login-examinee', loginExamineeCases],
  ['GET /api/organization', organizationCases],
  ['GET /api/schedule', scheduleCases],
  ['GET /api/app-schedule', appScheduleCases],
  ['GET /api/me', noLoginCases('GET', () => '/api/me')],
  ['GET /api/exams', noLoginCases('GET', () => '/api/exams')],
  ['POST /api/save-examinee-info', saveExamineeInfoCases],
  ['GET /api/get-status-choose-page', choosePageCases],
];

describe.each(kinds)('bad input on %s', (kind) => {
  const api: ApiContext = useApi(kind);
  let fixture: Fixture;

  beforeAll(async () => {
    const pupil = await addSitting(api.db);
    const started = await api.startAs(pupil.loginCode);
    const key = await answerKey(api.db, pupil.examId);
    fixture = {
      token: started.token,
      id: started.scheduleHistoryId,
      choiceQuestion: key.find((q) => q.type === 'single_choice')!.id,
      textQuestion: key.find((q) => q.type === 'text')!.id,
    };
  });

  /**
   * The tables as the previous case left them, when that case got as far as reading them: the
   * cases run one after another and nothing writes between two of them, so that reading is this
   * case's "before" too; a write made late by an earlier request still shows as a difference.
   */
  let lastSnapshot: TableSnapshot | undefined;

  describe.each(endpoints)('%s', (_, cases) => {
    test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const before = lastSnapshot ?? (await snapshotTables(api.db));
      lastSnapshot = undefined;
      const response = await api.call(c.method, c.path(fixture), c.options?.(fixture));

      expect(response.status).toBe(c.status);
      const error = errorOf(response);
      expect(error.code).toBe(c.code);
      if (c.issues) expect(error.issues).toEqual(c.issues);
      expect(JSON.stringify(response.body)).not.toMatch(/\bat .*\.ts|stack/i);
      lastSnapshot = await snapshotTables(api.db);
      expect(lastSnapshot).toEqual(before);
    });
  });

  test('the fixture is usable: the same requests, made right, succeed', async () => {
    const ok = await api.call('POST', '/api/exam/answers', {
      token: fixture.token,
      body: api.answer(fixture.id, fixture.choiceQuestion, 'b'),
    });
    expect(ok.status).toBe(201);
    const details = await api.call('GET', `/api/exam-details?schedule_history_id=${fixture.id}`, { token: fixture.token });
    expect(details.status).toBe(200);
  });
});
