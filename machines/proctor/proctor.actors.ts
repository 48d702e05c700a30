/**
 * The real side effects of the proctor machine: the admin API calls over the edge's AdminPort
 * (src/api/admin-client.ts), each answer parsed with the contract's schemas (contract/admin.ts),
 * and the staff token kept under its own storage key. `proctorMachine.provide(proctorImplementations(deps))`.
 *
 * Promises: a 2xx answer that does not match its schema is GENERIC_ERROR; a non-2xx answer is an
 * ApiFailure with the envelope's code and the status (GENERIC_ERROR when there is no envelope);
 * the pupil's Examinee-Token is never read or sent.
 */
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import {
  AdminSchedulesResponseSchema,
  AuditResponseSchema,
  ExtendScheduleResponseSchema,
  ExtendSittingResponseSchema,
  RosterAnswerSchema,
  SittingActionResponseSchema,
  StaffLoginResponseSchema,
  StaffMeResponseSchema,
  type StaffLoginRequest,
} from '../../contract/admin.ts';
import { administrationImplementations, call, refusalOf } from '../administration/administration.actors.ts';
import { administrationMachine } from '../administration/administration.machine.ts';
import type { FilePort } from '../administration/administration.types.ts';
import { ApiFailure, type StoragePort } from '../shared/ports.ts';
import { clearStaffToken, readStaffToken, writeStaffToken } from '../shared/storage.ts';
import type {
  ActionRequest,
  ActionResult,
  AdminPort,
  AdminRequest,
  RestoredSession,
  RosterRequest,
  RosterResult,
} from './proctor.types.ts';

const segment = (value: string | number) => encodeURIComponent(String(value));

/**
 * GET /admin/schedules/:code/roster?venue_id=&since=: the room's roster in full (no cursor), or
 * its changes since the cursor; an answer of the other kind than asked for is GENERIC_ERROR.
 */
export async function loadRoster(port: AdminPort, input: RosterRequest): Promise<RosterResult> {
  const query: Record<string, string | number> = {};
  if (input.venueId !== null) query['venue_id'] = input.venueId;
  if (input.since !== null) query['since'] = input.since;
  const request: AdminRequest = {
    method: 'GET',
    path: `/admin/schedules/${segment(input.code)}/roster`,
    token: input.token,
    ...(Object.keys(query).length > 0 ? { query } : {}),
  };
  const response = await port.send(request);
  if (response.status < 200 || response.status > 299) throw refusalOf(response);
  const parsed = v.safeParse(RosterAnswerSchema, response.body);
  if (!parsed.success || (parsed.output.kind === 'changes') !== (input.since !== null)) {
    throw new ApiFailure('GENERIC_ERROR', response.status, 'Unexpected roster');
  }
  return parsed.output.kind === 'full' ? { kind: 'full', roster: parsed.output } : { kind: 'changes', changes: parsed.output };
}

/** The action's call: a sitting's move-terminal, retake or extend, or the schedule-wide extension. */
export async function performAction(
  port: AdminPort,
  input: { token: string; scheduleCode: string; request: ActionRequest },
): Promise<ActionResult> {
  const { token, scheduleCode, request } = input;
  const key = request.idempotencyKey === undefined ? {} : { idempotency_key: request.idempotencyKey };
  if (request.kind === 'extend_room') {
    const body = {
      minutes: request.minutes,
      reason: request.reason,
      ...(request.venueId === null ? {} : { venue_id: request.venueId }),
      ...key,
    };
    const answer = await call(port, { method: 'POST', path: `/admin/schedules/${segment(scheduleCode)}/extend`, token, body }, ExtendScheduleResponseSchema);
    return { pupil: null, extended: answer.extended, server_time: answer.server_time };
  }
  if (request.sittingId === null) throw new ApiFailure('VALIDATION_ERROR');
  const base = `/admin/sittings/${segment(request.sittingId)}`;
  if (request.kind === 'extend') {
    const answer = await call(
      port,
      { method: 'POST', path: `${base}/extend`, token, body: { minutes: request.minutes, reason: request.reason, ...key } },
      ExtendSittingResponseSchema,
    );
    return { pupil: answer.pupil, extended: null, server_time: answer.server_time };
  }
  const path = request.kind === 'move_terminal' ? `${base}/move-terminal` : `${base}/retake`;
  const answer = await call(port, { method: 'POST', path, token, body: { reason: request.reason, ...key } }, SittingActionResponseSchema);
  return { pupil: answer.pupil, extended: null, server_time: answer.server_time };
}

export function proctorImplementations(deps: { admin: AdminPort & Partial<FilePort>; storage: StoragePort }) {
  const { admin, storage } = deps;
  return {
    actors: {
      administration: administrationMachine.provide(administrationImplementations({ admin })),
      restoreSession: fromPromise<RestoredSession | null, void>(async () => {
        const token = readStaffToken(storage);
        if (!token) return null;
        const me = await call(admin, { method: 'GET', path: '/admin/me', token }, StaffMeResponseSchema);
        return { token, staff: me.staff };
      }),
      signIn: fromPromise(({ input }: { input: StaffLoginRequest }) =>
        call(admin, { method: 'POST', path: '/admin/login', token: null, body: input }, StaffLoginResponseSchema),
      ),
      loadSchedules: fromPromise(({ input }: { input: { token: string } }) =>
        call(admin, { method: 'GET', path: '/admin/schedules', token: input.token }, AdminSchedulesResponseSchema),
      ),
      loadRoster: fromPromise(({ input }: { input: RosterRequest }) => loadRoster(admin, input)),
      performAction: fromPromise(({ input }: { input: { token: string; scheduleCode: string; request: ActionRequest } }) =>
        performAction(admin, input),
      ),
      loadAudit: fromPromise(({ input }: { input: { token: string; code: string } }) =>
        call(admin, { method: 'GET', path: '/admin/audit', token: input.token, query: { schedule: input.code } }, AuditResponseSchema),
      ),
      signOut: fromPromise<void, { token: string }>(async ({ input }) => {
        if (!input.token) return;
        const response = await admin.send({ method: 'POST', path: '/admin/logout', token: input.token });
        // 401: the token was already gone on the server, which is what signing out wants.
        if ((response.status < 200 || response.status > 299) && response.status !== 401) throw refusalOf(response);
      }),
    },
    actions: {
      storeToken: (_: unknown, params: { token: string }) => writeStaffToken(storage, params.token),
      forgetToken: () => clearStaffToken(storage),
    },
  };
}
